package perflab.experiment.run;

import perflab.report.ProfileFrames;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The profiles of one run's measured window ({@code --profile EVENT}): every JVM perflab started for the run (the
 * SUT, and a back end it started in its own process) gets a {@link SutProfiler} when the window starts and its
 * flame graph when it ends. Attaching runs on a thread of its own, so the driver's interval ticker is not held up. Never fails the run: a process that cannot be profiled gets one
 * line that says why.
 */
final class WindowProfiles {
    private static final int TOP_FRAMES = 10;

    private final String event;
    private final Map<String, Long> pids;
    private final Path runDir;
    private final PrintStream console;
    private final List<SutProfiler> attached = new ArrayList<>();
    private Thread starter;

    /** @param pids the processes to profile by name ("sut", "backend") */
    WindowProfiles(String event, Map<String, Long> pids, Path runDir, PrintStream console) {
        this.event = event;
        this.pids = pids;
        this.runDir = runDir;
        this.console = console;
    }

    /** Attaches to every process, on a thread of its own. */
    synchronized void start() {
        starter = new Thread(() -> {
            for (Map.Entry<String, Long> p : pids.entrySet()) {
                try {
                    SutProfiler profiler = SutProfiler.start(p.getKey(), p.getValue(), event, runDir.resolve(".profiler"));
                    synchronized (attached) {
                        attached.add(profiler);
                    }
                } catch (IOException e) {
                    warn("cannot profile the " + p.getKey() + " (pid " + p.getValue() + "): " + e.getMessage()
                            + "; the run goes on without its profile");
                }
            }
        }, "perflab-profiler-attach");
        starter.setDaemon(true);
        starter.start();
    }

    /**
     * Stops every profiler and writes its files; returns run.json's {@code profiles} entry (per process: the
     * flame graph, the collapsed stacks, the top frames by self samples), empty when nothing was profiled.
     */
    Map<String, Object> stop() throws InterruptedException {
        Thread t;
        synchronized (this) {
            t = starter;
        }
        if (t != null) {
            t.join(60_000);
        }
        Map<String, Object> profiles = new LinkedHashMap<>();
        List<SutProfiler> done;
        synchronized (attached) {
            done = new ArrayList<>(attached);
        }
        for (SutProfiler p : done) {
            try {
                p.stop(runDir);
                List<ProfileFrames.Frame> top = ProfileFrames.top(runDir.resolve(SutProfiler.collapsedFile(p.name())), TOP_FRAMES);
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("event", event);
                entry.put("flameGraph", SutProfiler.htmlFile(p.name()));
                entry.put("collapsed", SutProfiler.collapsedFile(p.name()));
                entry.put("topFrames", top);
                profiles.put(p.name(), entry);
                if (console != null) {
                    console.printf("perflab: %s profile of the %s: %s; hottest frames: %s%n", event, p.name(),
                            runDir.resolve(SutProfiler.htmlFile(p.name())), describe(top));
                }
            } catch (IOException e) {
                warn("the " + p.name() + "'s profile could not be written: " + e.getMessage());
            }
        }
        return profiles;
    }

    private static String describe(List<ProfileFrames.Frame> top) {
        List<String> parts = new ArrayList<>();
        for (ProfileFrames.Frame f : top.subList(0, Math.min(3, top.size()))) {
            parts.add(String.format(Locale.ROOT, "%s %.1f%%", f.name(), f.selfPercent()));
        }
        return parts.isEmpty() ? "no samples" : String.join(", ", parts);
    }

    private void warn(String message) {
        System.err.println("perflab: warning: --profile: " + message);
    }
}

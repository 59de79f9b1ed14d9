package perflab.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * async-profiler (tools.profiler:async-profiler, whose jar carries the native library) attached to a running JVM
 * for a window: {@code jcmd <pid> JVMTI.agent_load <library> "start,event=..."} at the window's start, and at its
 * end a flame graph ({@code profile-<name>.html}) and the collapsed stacks ({@code profile-<name>.collapsed}, the
 * report's top frames) into the run directory. Attaching needs no JVM flag at start, so the profiled run is the
 * same JVM as an unprofiled one until the window. Where it cannot attach (not Linux x64, no jcmd, a JVM that
 * refuses agents) the run goes on without a profile and says why in one line.
 */
public final class SutProfiler {
    /** What {@code --profile} takes: async-profiler's events. */
    public static final List<String> EVENTS = List.of("cpu", "alloc", "lock", "wall");
    private static final String LIBRARY_RESOURCE = "linux-x64/libasyncProfiler.so";
    private static final long JCMD_TIMEOUT_SECONDS = 30;

    private final String name;
    private final long pid;
    private final Path jcmd;
    private final Path library;

    private SutProfiler(String name, long pid, Path jcmd, Path library) {
        this.name = name;
        this.pid = pid;
        this.jcmd = jcmd;
        this.library = library;
    }

    /** The flame graph's file name for a process ("sut", "backend"). */
    public static String htmlFile(String name) {
        return "profile-" + name + ".html";
    }

    /** The collapsed stacks' file name for a process. */
    public static String collapsedFile(String name) {
        return "profile-" + name + ".collapsed";
    }

    /** Checks a --profile value; the message names the accepted ones. */
    public static String event(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (!EVENTS.contains(v)) {
            throw new IllegalArgumentException("--profile: '" + value + "' is not one of " + String.join(", ", EVENTS));
        }
        return v;
    }

    /**
     * Starts profiling process {@code pid} (named {@code name} in the file names) with async-profiler's {@code event};
     * {@code javaHome} is the JDK running it (its jcmd attaches), {@code workDir} takes the native library.
     *
     * @throws IOException with a one-line reason when it cannot attach
     */
    public static SutProfiler start(String name, long pid, String event, Path javaHome, Path workDir) throws IOException {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IOException("async-profiler is bundled for Linux x64 only, this is " + os + " " + arch);
        }
        Path jcmd = javaHome.resolve("bin/jcmd");
        if (!Files.isExecutable(jcmd)) {
            throw new IOException(jcmd + " is not there (a JRE without jcmd cannot be attached to)");
        }
        Path library = workDir.resolve("libasyncProfiler.so");
        if (!Files.exists(library)) {
            try (InputStream in = SutProfiler.class.getClassLoader().getResourceAsStream(LIBRARY_RESOURCE)) {
                if (in == null) {
                    throw new IOException("async-profiler's library is not on perflab's classpath");
                }
                Files.createDirectories(workDir);
                Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        SutProfiler p = new SutProfiler(name, pid, jcmd, library);
        // cpu: perf events where the kernel allows them, else async-profiler falls back to a timer by itself
        p.command("start,event=" + event + ("cpu".equals(event) || "wall".equals(event) ? ",interval=1ms" : ""));
        return p;
    }

    /** Stops profiling and writes the flame graph and the collapsed stacks into {@code runDir}. */
    public void stop(Path runDir) throws IOException {
        command("dump,file=" + runDir.resolve(htmlFile(name)).toAbsolutePath());
        command("stop,collapsed,file=" + runDir.resolve(collapsedFile(name)).toAbsolutePath());
    }

    public String name() {
        return name;
    }

    /** One async-profiler command through jcmd; its output's "return code: 0" means the agent took it. */
    private void command(String options) throws IOException {
        // jcmd splits its arguments on '=', so the agent's options go in as one quoted string
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "JVMTI.agent_load", library.toString(),
                "\"" + options + "\"").redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(JCMD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("jcmd did not answer within " + JCMD_TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while attaching");
        }
        if (p.exitValue() != 0 || !out.contains("return code: 0")) {
            String last = out.lines().reduce((a, b) -> b).orElse("no output");
            throw new IOException("async-profiler refused '" + options.split(",")[0] + "': " + last);
        }
    }
}

package perflab.experiment.run;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;

/**
 * async-profiler (tools.profiler:async-profiler, whose jar carries the native library) attached to a running JVM
 * for a window through the JDK's attach API (what {@code jcmd <pid> JVMTI.agent_load <library> "start,event=..."}
 * does) at the window's start, and at its
 * end a flame graph ({@code profile-<name>.html}) and the collapsed stacks ({@code profile-<name>.collapsed}, the
 * report's top frames) into the run directory. Attaching needs no JVM flag at start, so the profiled run is the
 * same JVM as an unprofiled one until the window. Where it cannot attach (not Linux x64, a JVM that refuses
 * agents or attaching) the run goes on without a profile and says why in one line.
 */
public final class SutProfiler {
    /** What {@code --profile} takes: async-profiler's events. */
    public static final List<String> EVENTS = List.of("cpu", "alloc", "lock", "wall");
    private static final String LIBRARY_RESOURCE = "linux-x64/libasyncProfiler.so";

    private final String name;
    private final long pid;
    private final Path library;

    private SutProfiler(String name, long pid, Path library) {
        this.name = name;
        this.pid = pid;
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
     * {@code workDir} takes the native library.
     *
     * @throws IOException with a one-line reason when it cannot attach
     */
    public static SutProfiler start(String name, long pid, String event, Path workDir) throws IOException {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IOException("async-profiler is bundled for Linux x64 only, this is " + os + " " + arch);
        }
        // absolute: the JVM that loads it resolves a relative path against its own working directory, which for a
        // server file's SUT (Liberty, Tomcat) is its server's, not perflab's
        Path library = workDir.resolve("libasyncProfiler.so").toAbsolutePath();
        if (!Files.exists(library)) {
            try (InputStream in = SutProfiler.class.getClassLoader().getResourceAsStream(LIBRARY_RESOURCE)) {
                if (in == null) {
                    throw new IOException("async-profiler's library is not on perflab's classpath");
                }
                Files.createDirectories(workDir);
                Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        SutProfiler p = new SutProfiler(name, pid, library);
        // cpu: perf events where the kernel allows them, else async-profiler falls back to a timer by itself. Its
        // default interval (10 ms of CPU): sampling every millisecond cost the lean SUT a third of its throughput
        p.command("start,event=" + event);
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

    /**
     * One async-profiler command, given to the agent through the JDK's attach API from this JVM (as jcmd does, but
     * without starting a JVM for it: a jcmd's start-up took a CPU away from the SUT for the window's first second).
     */
    private void command(String options) throws IOException {
        com.sun.tools.attach.VirtualMachine vm;
        try {
            vm = com.sun.tools.attach.VirtualMachine.attach(Long.toString(pid));
        } catch (com.sun.tools.attach.AttachNotSupportedException | RuntimeException e) {
            throw new IOException("cannot attach to pid " + pid + ": " + e.getMessage());
        }
        try {
            vm.loadAgentPath(library.toString(), options);
        } catch (com.sun.tools.attach.AgentLoadException | com.sun.tools.attach.AgentInitializationException e) {
            throw new IOException("async-profiler refused '" + options.split(",")[0] + "': " + e.getMessage());
        } finally {
            vm.detach();
        }
    }
}

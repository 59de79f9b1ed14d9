package perflab.experiment.run;

import perflab.core.config.Quantities;
import perflab.core.config.RunConfig;
import perflab.core.workload.StackInfo;
import perflab.core.workload.SutInstances;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The command line that starts a stack's SUT JVM: the JDK under test, only the stack's own classpath, the
 * settings under test, GC logging always on, and CPU pinning. The SUT runs in its own session (setsid) so
 * that a Ctrl-C meant for perflab does not hit it first; perflab stops it itself, and the SUT exits when
 * its stdin closes if perflab dies.
 */
public final class SutCommand {
    /**
     * Every SUT JVM compiles in the foreground: a request thread that asks for a compilation waits for it. On a
     * machine with few CPUs and many busy request threads, a background compiler gets only its share of the CPUs:
     * hot methods wait many seconds in the queue while their interpreted code takes the CPU the compiler needs, and a
     * run can stay there for its whole window (lean soap-echo at 50 clients: 4,500-5,900 req/s at 340-470 µs of SUT
     * CPU per request in about a third of the runs, 430 methods queued, against 45,000-50,000 req/s at 31 µs; the
     * claims back end the same). It changes the warm-up, not the code compiled. Given first, so a
     * {@code --jvm -XX:+BackgroundCompilation} (the JVM's default) after it wins.
     */
    public static final String FOREGROUND_COMPILATION = "-XX:-BackgroundCompilation";

    private SutCommand() {
    }

    public static List<String> build(RunConfig.Sut sut, StackInfo stack, Path perflabHome, Path runDir) {
        return build(sut, stack, perflabHome, runDir, false);
    }

    /** @param jfr record a flight recording of the SUT into {@code <runDir>/sut.jfr} */
    public static List<String> build(RunConfig.Sut sut, StackInfo stack, Path perflabHome, Path runDir, boolean jfr) {
        return build(sut, stack, perflabHome, runDir, jfr, SutInstances.SUT);
    }

    /**
     * The command of the SUT process {@code name} ({@code sut}, or one of several instances, {@code sut-1}): its
     * files in the run directory carry its name ({@link #gcLogFile}, {@link #jfrFile}, {@link #jvmReportFile}).
     */
    public static List<String> build(RunConfig.Sut sut, StackInfo stack, Path perflabHome, Path runDir, boolean jfr,
                                     String name) {
        Path java = javaExecutable(sut.javaHome());
        Path stackDir = stackClasspath(stack, perflabHome);
        List<String> command = new ArrayList<>();
        command.addAll(perflab.core.process.ProcessReaper.inOwnGroup(List.of())); // its own session: see ManagedProcess
        if (sut.cpus() != null) {
            command.addAll(List.of("taskset", "-c", sut.cpus()));
        }
        command.add(java.toString());
        command.addAll(heapAndGc(sut));
        command.add(FOREGROUND_COMPILATION);
        command.addAll(sut.jvmFlags());
        command.add(GcFlags.gcLogFlag(runDir.resolve(gcLogFile(name))));
        if (jfr) {
            command.add(jfrFlag(runDir.resolve(jfrFile(name))));
        }
        command.add("-cp");
        command.add(stackDir.toAbsolutePath() + "/*");
        command.add(stack.mainClass());
        command.addAll(List.of("--host", "127.0.0.1", "--port", Integer.toString(sut.port()),
                "--jvm-report", runDir.resolve(jvmReportFile(name)).toAbsolutePath().toString()));
        for (Map.Entry<String, String> setting : sut.settings().entrySet()) {
            command.add("--" + setting.getKey());
            command.add(setting.getValue());
        }
        return command;
    }

    /**
     * The JVM flags of the settings under test for a server's JVM perflab does not start itself (a server file's):
     * heap, collector, {@code --jvm}, the GC log of SUT process {@code name} and, with {@code jfr}, its recording.
     * Not perflab's foreground compilation: a product warms up as it would in its own use.
     */
    public static List<String> jvmFlags(RunConfig.Sut sut, Path runDir, boolean jfr, String name) {
        List<String> flags = new ArrayList<>(heapAndGc(sut));
        flags.addAll(sut.jvmFlags());
        flags.add(GcFlags.gcLogFlag(runDir.resolve(gcLogFile(name))));
        if (jfr) {
            flags.add(jfrFlag(runDir.resolve(jfrFile(name))));
        }
        return flags;
    }

    private static List<String> heapAndGc(RunConfig.Sut sut) {
        List<String> flags = new ArrayList<>();
        if (sut.heap() != null) {
            long bytes = Quantities.size("--heap", sut.heap());
            if (bytes < 8L << 20) {
                throw new IllegalArgumentException("--heap: '" + sut.heap() + "' is too small; give at least 8m");
            }
            flags.add("-Xms" + sut.heap());
            flags.add("-Xmx" + sut.heap());
        }
        if (sut.gc() != null) {
            flags.add(GcFlags.flagFor(sut.gc()));
        }
        return flags;
    }

    /** The GC log of SUT process {@code name}: gc.log for the one SUT, sut-1-gc.log for an instance. */
    public static String gcLogFile(String name) {
        return name.equals(SutInstances.SUT) ? "gc.log" : name + "-gc.log";
    }

    /** The flight recording of SUT process {@code name} (with --jfr): sut.jfr, sut-1.jfr. */
    public static String jfrFile(String name) {
        return name + ".jfr";
    }

    /** What SUT process {@code name}'s JVM reports of itself at start (run.json's effectiveJvm): sut-jvm.json. */
    public static String jvmReportFile(String name) {
        return name + "-jvm.json";
    }

    /**
     * JFR from the start with the "profile" settings, dumped into {@code file} when the JVM exits: the SUT exits
     * through System.exit when perflab closes its stdin (and on SIGTERM), both of which run JFR's dump. The
     * same syntax on JDK 11 to 25. A comma in the path would split the option, so it is refused.
     */
    public static String jfrFlag(Path file) {
        String path = file.toAbsolutePath().toString();
        if (path.contains(",")) {
            throw new IllegalArgumentException("--jfr: the run directory " + path + " contains a comma, which the "
                    + "JVM's -XX:StartFlightRecording option cannot take; use --out with another path");
        }
        return "-XX:StartFlightRecording=filename=" + path + ",settings=profile,dumponexit=true";
    }

    public static Path javaExecutable(String javaHome) {
        Path home = Path.of(javaHome == null ? System.getProperty("java.home") : javaHome);
        Path java = home.resolve("bin").resolve("java");
        if (!Files.isExecutable(java)) {
            throw new IllegalArgumentException("--java-home: no executable bin/java under " + home);
        }
        return java;
    }

    /** The stack's runtime classpath directory, built by Maven into {@code <module>/target/stack}. */
    public static Path stackClasspath(StackInfo stack, Path perflabHome) {
        return moduleClasspath(stack.moduleDir(), "stack '" + stack.name() + "'", perflabHome);
    }

    /** A module's runtime classpath directory ({@code <module>/target/stack}); {@code what} names it in errors. */
    static Path moduleClasspath(String moduleDir, String what, Path perflabHome) {
        Path dir = perflabHome.resolve(moduleDir).resolve("target").resolve("stack");
        try (var jars = Files.list(dir)) {
            if (jars.noneMatch(p -> p.toString().endsWith(".jar"))) {
                throw new IllegalArgumentException(what + " is not built (" + dir + " is empty); run mvn package");
            }
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(what + " is not built (no " + dir + "); run mvn package");
        }
        return dir;
    }
}

package perflab.cli;

import perflab.core.config.Quantities;
import perflab.core.config.RunConfig;
import perflab.experiment.GcFlags;
import perflab.experiment.SutCommand;
import picocli.CommandLine.Option;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/** The SUT's flags, shared by `run` and `serve`: JVM settings and the stack's server settings. */
final class SutOptions {
    @Option(names = "--stack", paramLabel = "NAME", description = "Server implementation (default: the workload's first; see `perflab list`).")
    String stack;

    @Option(names = "--jvm", paramLabel = "\"FLAGS\"", description = "Extra JVM flags for the SUT, e.g. \"-XX:+UseTransparentHugePages -Xmn256m\".")
    String jvm;

    @Option(names = "--heap", paramLabel = "SIZE", description = "SUT heap: sets -Xms and -Xmx, e.g. 512m, 2g.")
    String heap;

    @Option(names = "--gc", paramLabel = "NAME", description = "SUT collector: serial, parallel, g1, zgc, shenandoah (default: the JVM's choice, recorded).")
    String gc;

    @Option(names = "--java-home", paramLabel = "DIR", description = "JDK that runs the SUT (default: the one running perflab).")
    String javaHome;

    @Option(names = "--cpus", paramLabel = "LIST", description = "Pin the SUT to these CPUs (taskset list, e.g. 0 or 0-1).")
    String cpus;

    @Option(names = "--port", paramLabel = "PORT", description = "SUT port (run: default ephemeral; serve: default 8080).")
    Integer port;

    @Option(names = "--server-threads", paramLabel = "N", description = "Web container thread pool size (stack default if unset).")
    Integer serverThreads;

    @Option(names = "--max-requests-per-connection", paramLabel = "N", description = "Server: persistent requests per connection (0 = unlimited).")
    Integer maxRequestsPerConnection;

    @Option(names = "--access-log", paramLabel = "on|off", description = "Server access log (default off).")
    String accessLog;

    @Option(names = "--server-metrics", paramLabel = "on|off", description = "Server-side per-request timing (the studies' PMI; default off).")
    String serverMetrics;

    @Option(names = "--backend", paramLabel = "separate-jvm|same-jvm",
            description = "Workloads with back ends (claims): back ends in their own JVM (separate-jvm) or in the SUT's (same-jvm). Default: the stack's (separate-jvm).")
    String backend;

    @Option(names = "--backend-timeout", paramLabel = "TIME",
            description = "claims: a back-end call slower than this gets the client a Server fault (default 10s).")
    String backendTimeout;

    @Option(names = "--backend-jvm", paramLabel = "\"FLAGS\"",
            description = "claims: JVM flags of the back-end JVM (separate-jvm), \"\" for none. Default: "
                    + "-XX:-BackgroundCompilation (a back end that warms up the same way every run; docs/workloads/claims.md).")
    String backendJvm;

    @Option(names = "--jfr", description = "Record a flight recording of the SUT (JFR, profile settings) into the result directory as sut.jfr, written when the SUT stops.")
    boolean jfr;

    @Option(names = "--profile", paramLabel = "cpu|alloc|lock|wall", arity = "0..1", fallbackValue = "cpu",
            description = "Profile the SUT (and a back end of its own) over the measured window with async-profiler: a "
                    + "flame graph per process (profile-sut.html) in the result directory, its hottest frames in the "
                    + "report. Without a value: cpu.")
    String profile;

    /** @param http the protocol the SUT serves: "http1" or "h2c" (h2c connectors also serve HTTP/1.1) */
    RunConfig.Sut toSut(int defaultPort, String http) {
        if (heap != null) {
            Quantities.size("--heap", heap);
        }
        String collector = gc == null ? null : gc.toLowerCase(Locale.ROOT);
        if (collector != null) {
            GcFlags.flagFor(collector);
        }
        if (javaHome != null) {
            SutCommand.javaExecutable(javaHome);
        }
        if (cpus != null) {
            CpuList.parse("--cpus", cpus);
        }
        int p = port == null ? defaultPort : port;
        if (p < 0 || p > 65535) {
            throw new IllegalArgumentException("--port must be within 0..65535, got " + p);
        }
        List<String> flags = jvmFlags("--jvm", jvm);
        Map<String, String> settings = new LinkedHashMap<>();
        if (backendJvm != null) {
            settings.put("backend-jvm", String.join(" ", jvmFlags("--backend-jvm", backendJvm)));
        }
        if (serverThreads != null) {
            if (serverThreads < 1) {
                throw new IllegalArgumentException("--server-threads must be at least 1, got " + serverThreads);
            }
            settings.put("server-threads", serverThreads.toString());
        }
        if (maxRequestsPerConnection != null) {
            if (maxRequestsPerConnection < 0) {
                throw new IllegalArgumentException("--max-requests-per-connection must be 0 (unlimited) or more");
            }
            settings.put("max-requests-per-connection", maxRequestsPerConnection.toString());
        }
        if (accessLog != null) {
            settings.put("access-log", onOff("--access-log", accessLog));
        }
        if (serverMetrics != null) {
            settings.put("server-metrics", onOff("--server-metrics", serverMetrics));
        }
        if (backend != null) {
            String b = backend.trim().toLowerCase(Locale.ROOT);
            if (!b.equals("separate-jvm") && !b.equals("same-jvm")) {
                throw new IllegalArgumentException("--backend: '" + backend + "' is not separate-jvm or same-jvm");
            }
            settings.put("backend", b);
        }
        if (backendTimeout != null) {
            Duration t = Quantities.duration("--backend-timeout", backendTimeout);
            if (t.isZero() || t.isNegative() || t.toMillis() > 600_000 || t.toNanos() % 1_000_000 != 0) {
                throw new IllegalArgumentException("--backend-timeout must be whole milliseconds within 1ms..600s, got '"
                        + backendTimeout + "'");
            }
            settings.put("backend-timeout", t.toMillis() + "ms");
        }
        if (!"http1".equals(http)) {
            settings.put("http", http);
        }
        return new RunConfig.Sut(flags, heap, collector, javaHome, cpus, p, settings);
    }

    /** JVM flags given as one string, each checked to be a flag. */
    static List<String> jvmFlags(String option, String value) {
        List<String> flags = value == null || value.isBlank() ? List.of() : Arrays.asList(value.trim().split("\\s+"));
        for (String f : flags) {
            if (!f.startsWith("-")) {
                throw new IllegalArgumentException(option + ": '" + f + "' is not a JVM flag (flags start with -)");
            }
        }
        return flags;
    }

    static String onOff(String name, String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if (!v.equals("on") && !v.equals("off")) {
            throw new IllegalArgumentException(name + ": '" + value + "' is not on or off");
        }
        return v;
    }
}

package perflab.cli;

import perflab.core.config.Quantities;
import perflab.core.config.RunConfig;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.SutArgs;
import perflab.experiment.run.GcFlags;
import perflab.experiment.run.SutCommand;
import picocli.CommandLine.Option;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The SUT's flags, shared by `run` and `serve`: JVM settings and the stack's server settings. */
final class SutOptions {
    @Option(names = "--stack", paramLabel = "NAME", description = "Server implementation (default: the workload's first; see `perflab list`).")
    String stack;

    @Option(names = "--jvm", paramLabel = "\"FLAGS\"", description = "Extra JVM flags for the SUT, e.g. \"-XX:+UseTransparentHugePages -Xmn256m\". They come after "
            + "perflab's -XX:-BackgroundCompilation (the SUT compiles in the foreground, so a starved JIT cannot "
            + "make a run slow); -XX:+BackgroundCompilation restores the JVM's default.")
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

    @Option(names = "--max-request-bytes", paramLabel = "SIZE",
            description = "Server: the largest request a stack accepts (a body, or the XML it parses); a larger one is refused (default 10m).")
    String maxRequestBytes;

    @Option(names = "--access-log", paramLabel = "on|off", description = "Server access log (default off).")
    String accessLog;

    @Option(names = "--server-metrics", paramLabel = "on|off", description = "Server-side per-request timing (the studies' PMI; default off).")
    String serverMetrics;

    @Option(names = "--jfr", description = "Record a flight recording of the SUT (JFR, profile settings) into the result directory as sut.jfr, written when the SUT stops.")
    boolean jfr;

    @Option(names = "--profile", paramLabel = "cpu|alloc|lock|wall", arity = "0..1", fallbackValue = "cpu",
            description = "Profile the SUT (and a back end of its own) over the measured window with async-profiler: a "
                    + "flame graph per process (profile-sut.html) in the result directory, its hottest frames in the "
                    + "report. Without a value: cpu.")
    String profile;

    @Option(names = "--server", paramLabel = "FILE", description = "Start this server as the SUT instead of the "
            + "workload's stack: a server file (docs/servers.md) declaring any program or product (its command, home, "
            + "ports, readiness, stop, how JVM flags reach it, its own settings). --heap, --gc, --jvm, --java-home and "
            + "--jfr reach its JVM as the file says.")
    String server;

    @Option(names = "--set", paramLabel = "NAME=VALUE", description = "With --server: one of the server file's own "
            + "settings (e.g. --set threads=50); repeat for several.")
    List<String> set;

    /** perflab's own stacks' server flags, which a server file's server does not take: it has its own settings. */
    private static final List<String> STACK_SETTINGS = List.of("server-threads", "max-requests-per-connection",
            "max-request-bytes", "access-log", "server-metrics");

    /**
     * {@code perflab run tomcat.yaml} (or serve): the file is the server, its {@code workload:} the workload, which is
     * returned; any other word, and a workload's own file (a scenario), is returned as it is. A workload's name never
     * ends in .yaml, so the two cannot be mistaken.
     */
    String serverFileInPlaceOf(String workload) throws java.io.IOException {
        if (!perflab.core.workload.Workloads.isFileName(workload)
                || perflab.core.workload.Workloads.isWorkloadFile(java.nio.file.Path.of(workload))) {
            return workload;
        }
        if (server != null) {
            throw new IllegalArgumentException(workload + " and --server " + server + ": give one server file");
        }
        perflab.core.server.ServerFile file = ServerFileReader.read(java.nio.file.Path.of(workload));
        if (file.workload() == null) {
            throw new IllegalArgumentException(workload + " names no workload (workload: in the file); give it with "
                    + "WORKLOAD --server " + workload);
        }
        server = workload;
        return file.workload();
    }

    /** The SUT flags given, as written (a run that starts no SUT refuses them). */
    List<String> given() {
        List<String> given = new java.util.ArrayList<>();
        Object[][] flags = {{"--stack", stack}, {"--jvm", jvm}, {"--heap", heap}, {"--gc", gc}, {"--java-home", javaHome},
                {"--cpus", cpus}, {"--port", port}, {"--server-threads", serverThreads},
                {"--max-requests-per-connection", maxRequestsPerConnection}, {"--max-request-bytes", maxRequestBytes},
                {"--access-log", accessLog}, {"--server-metrics", serverMetrics}, {"--jfr", jfr ? true : null},
                {"--profile", profile}, {"--server", server}, {"--set", set}};
        for (Object[] f : flags) {
            if (f[1] != null) {
                given.add((String) f[0]);
            }
        }
        return given;
    }

    /**
     * The server file of {@code --server}, or the one that declares the chosen stack of {@code w} (a product such as
     * Liberty with perflab's application, {@link perflab.core.workload.StackInfo#serverFile}), read and checked; null
     * for a stack of perflab's own.
     */
    perflab.core.server.ServerFile serverFile(perflab.core.workload.Workload w) throws java.io.IOException {
        if (server == null) {
            perflab.core.workload.StackInfo chosen = stack != null ? w.stack(stack) : w.defaultStack();
            if (chosen.serverFile() != null) {
                return ServerFileReader.read(Perflab.home().resolve(chosen.serverFile()));
            }
            if (set != null && !set.isEmpty()) {
                throw new IllegalArgumentException("--set sets a server file's own settings: it needs --server FILE, or "
                        + "a stack a server file declares");
            }
            return null;
        }
        if (stack != null) {
            throw new IllegalArgumentException("--stack and --server: the SUT is the workload's stack or a server "
                    + "file's server, not both");
        }
        return ServerFileReader.read(java.nio.file.Path.of(server));
    }

    /** Whether the server file of {@link #serverFile} is the chosen stack's rather than {@code --server}'s. */
    boolean stacksServerFile() {
        return server == null;
    }

    /**
     * {@code s} started from {@code file} (null: unchanged) for workload {@code w}: perflab's stack settings refused
     * unless the file declares a setting of that name (then the flag fills it), the protocol left to the driver (the
     * server serves what it serves), the file's own settings given by {@code --set} added; a {@code --set} of one of
     * the workload's own settings is refused, for only its flag reaches the traffic too.
     */
    RunConfig.Sut withServerFile(RunConfig.Sut s, perflab.core.server.ServerFile file, perflab.core.workload.Workload w) {
        if (file == null) {
            return s;
        }
        Map<String, String> settings = new LinkedHashMap<>(s.settings());
        for (String name : STACK_SETTINGS) {
            if (settings.containsKey(name) && file.setting(name) == null) {
                throw new IllegalArgumentException("--" + name + " is a setting of perflab's stacks; " + file.name()
                        + " takes its own with --set" + (file.settings().isEmpty() ? " (its file declares none)"
                        : ": " + String.join(", ", file.settingNames())));
            }
        }
        settings.remove("http");
        if (s.port() != 0) {
            throw new IllegalArgumentException("--port with --server: perflab chooses a server file's ports free on "
                    + "loopback ({port} in its file)");
        }
        for (String pair : set == null ? List.<String>of() : set) {
            int eq = pair.indexOf('=');
            String name = eq > 0 ? pair.substring(0, eq).trim() : "";
            perflab.core.workload.WorkloadSetting setting = file.setting(name);
            if (setting != null && w.settings().stream().anyMatch(ws -> ws.name().equals(name))) {
                throw new IllegalArgumentException("--set " + pair + ": " + name + " is " + w.name() + "'s own setting, "
                        + "which " + file.name() + " takes from its flag: give --" + name + " " + pair.substring(eq + 1).trim());
            }
            if (setting == null) {
                throw new IllegalArgumentException("--set " + pair + ": " + (eq <= 0 ? "give NAME=VALUE"
                        : file.name() + " has no setting '" + name + "'") + (file.settings().isEmpty()
                        ? " (its file declares none)" : "; its settings: " + String.join(", ", file.settingNames())));
            }
            settings.put(name, setting.normalize(pair.substring(eq + 1).trim()));
        }
        return s.withSettings(settings).withServer(file);
    }

    /** @param http the protocol the SUT serves: "http1" or "h2c" (h2c connectors also serve HTTP/1.1) */
    RunConfig.Sut toSut(int defaultPort, String http) {
        return toSut(defaultPort, http, 1);
    }

    /** @param instances how many JVMs run the SUT ({@code run --instances}); each needs its own ports */
    RunConfig.Sut toSut(int defaultPort, String http, int instances) {
        perflab.core.workload.SutInstances.check(instances);
        if (instances > 1 && port != null && port != 0) {
            throw new IllegalArgumentException("--port " + port + " with --instances " + instances + ": each instance "
                    + "takes its own ephemeral ports, and the driver sends to the proxy in front of them");
        }
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
        if (serverThreads != null) {
            settings.put("server-threads", serverThreads.toString());
        }
        if (maxRequestBytes != null) {
            long bytes = Quantities.size("--max-request-bytes", maxRequestBytes);
            if (bytes > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("--max-request-bytes must be below 2g, got '" + maxRequestBytes + "'");
            }
            settings.put("max-request-bytes", Long.toString(bytes));
        }
        if (maxRequestsPerConnection != null) {
            settings.put("max-requests-per-connection", maxRequestsPerConnection.toString());
        }
        if (accessLog != null) {
            settings.put("access-log", onOff("--access-log", accessLog));
        }
        if (serverMetrics != null) {
            settings.put("server-metrics", onOff("--server-metrics", serverMetrics));
        }
        if (!"http1".equals(http)) {
            settings.put("http", http);
        }
        checkWithServer(p, settings);
        return new RunConfig.Sut(flags, heap, collector, javaHome, cpus, p, settings, instances);
    }

    /**
     * The server settings checked by the rules every stack applies ({@link ServerSettings}), so that the CLI
     * refuses what a SUT would refuse (--server-threads 1) before anything starts.
     */
    private static void checkWithServer(int port, Map<String, String> settings) {
        List<String> args = new java.util.ArrayList<>(List.of("--port", Integer.toString(port)));
        settings.forEach((name, value) -> {
            args.add("--" + name);
            args.add(value);
        });
        ServerSettings.from(SutArgs.parse(args.toArray(String[]::new), ServerSettings.NAMES));
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

package perflab.cli;

import perflab.core.config.Quantities;
import perflab.core.config.RunConfig;
import perflab.driver.ConnectionPolicy;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The driver's flags and where its results go, shared by `run` and `drive`. */
final class LoadOptions {
    @Option(names = "--operation", paramLabel = "NAME", description = "Operation to drive (default: the workload's first; see `perflab list`).")
    String operation;

    @Option(names = PresetFlags.OPTION, paramLabel = "NAME", description = "A study's run rule as flags, as the "
            + "workload declares it (`perflab list` shows each workload's presets); a flag given beside it wins.")
    String preset;

    @Option(names = "--clients", paramLabel = "N[,N...]", defaultValue = "16",
            description = "Closed model: concurrent clients, one connection and one outstanding request each. "
                    + "Open model: size of the connection pool. A list (1,8,16,32,64,100,128) runs one "
                    + "measurement per value and prints the client-scaling table. Default: ${DEFAULT-VALUE}.")
    String clients;

    @Option(names = "--rate", paramLabel = "REQ/S",
            description = "Open model: send requests at this rate (e.g. 1000, 2.5k) whatever the responses do; "
                    + "latency counts from each request's intended send time. Without it: closed model.")
    String rate;

    @Option(names = "--schedule", paramLabel = "constant|poisson", defaultValue = "constant",
            description = "Open model: evenly spaced or Poisson arrivals. Default: ${DEFAULT-VALUE}.")
    String schedule;

    @Option(names = "--duration", paramLabel = "TIME", description = "Measured window, e.g. 30s, 5m, 8h. Default: 20s unless --requests is given.")
    String duration;

    @Option(names = "--requests", paramLabel = "N", description = "Measured window as a count of completed requests (e.g. 500k) instead of a time.")
    String requests;

    /** The longest an automatic warm-up may last when --warmup auto gives no maximum. */
    static final String AUTO_WARMUP_MAX = "120s";

    @Option(names = "--warmup", paramLabel = "auto[:MAX]|TIME", defaultValue = "auto",
            description = "Warm-up, not measured. auto: until the JIT compilers of the SUT and the driver are quiet and "
                    + "throughput (closed model) or latency (open model) is steady for 5 s in a row, at most MAX "
                    + "(default " + AUTO_WARMUP_MAX + "); a TIME (30s) is exactly that long. Default: ${DEFAULT-VALUE}.")
    String warmup;

    @Option(names = "--warmup-requests", paramLabel = "N", description = "Warm-up as a count of requests instead of a time.")
    String warmupRequests;

    @Option(names = "--keepalive", paramLabel = "on|off|N", defaultValue = "on",
            description = "Connections: persistent (on), one per request (off), or closed after N requests. Default: ${DEFAULT-VALUE}.")
    String keepalive;

    @Option(names = "--think-time", paramLabel = "TIME", defaultValue = "0ms", description = "Closed model: pause between a response and the client's next request.")
    String thinkTime;

    @Option(names = "--timeout", paramLabel = "TIME", defaultValue = "30s", description = "Request timeout. Default: ${DEFAULT-VALUE}.")
    String timeout;

    @Option(names = "--deep-check", paramLabel = "RATIO", defaultValue = "0.01",
            description = "Share of measured responses whose whole content is compared (and the warm-up's first 1,000). Default: ${DEFAULT-VALUE}.")
    double deepCheck;

    @Option(names = "--seed", paramLabel = "N", description = "Random seed (payload content, Poisson arrivals). Default: random, recorded in run.json.")
    Long seed;

    @Option(names = "--http", paramLabel = "http1|h2c", defaultValue = "http1",
            description = "Protocol: HTTP/1.1, or HTTP/2 over cleartext with prior knowledge (run: the SUT serves it too). Default: ${DEFAULT-VALUE}.")
    String http;

    @Option(names = "--streams-per-connection", paramLabel = "N", defaultValue = "1",
            description = "h2c: concurrent streams per connection; --clients requests in flight share ceil(clients / N) connections. Default: ${DEFAULT-VALUE}.")
    int streamsPerConnection;

    @Option(names = "--driver-cpus", paramLabel = "LIST", description = {"Pin the driver to these CPUs (disjoint from the SUT's --cpus).",
            "With --agents local:N: one list for every agent, or one per agent separated by '/' (0/1)."})
    String driverCpus;

    @Option(names = "--agents", paramLabel = "SPEC", description = {"Drive from agents, the load split between them and their figures merged exactly:",
            "local:N starts N agent JVMs on this machine; ssh:user@host[:port],... one agent on each host. See docs/distributed.md."})
    String agents;

    @Option(names = "--agents-key", paramLabel = "FILE", description = "--agents ssh: the private key (default: ~/.ssh/id_ed25519, id_ecdsa, id_rsa).")
    String agentsKey;

    @Option(names = "--agents-known-hosts", paramLabel = "FILE", description = "--agents ssh: the hosts' keys are checked against this file (default: ~/.ssh/known_hosts).")
    String agentsKnownHosts;

    @Option(names = "--agents-controller", paramLabel = "ADDRESS[:PORT]", description = "--agents ssh: the address the agents dial (default: this machine's address facing the first host, any free port).")
    String agentsController;

    @Option(names = "--out", paramLabel = "DIR", description = "Result directory, new or empty (default: results/<time>-<workload>-<operation>).")
    String out;

    @Option(names = "--quiet", description = "Print only the result directory and the summary line.")
    boolean quiet;

    @Option(names = "--history", paramLabel = "FILE|off", description = "Record the finished run in this results "
            + "history (default: $PERFLAB_HISTORY, else ~/.local/share/perflab/history.sqlite); off: in none. "
            + "See: perflab history --help, docs/history.md.")
    String history;

    @Option(names = "--label", paramLabel = "TEXT", description = "What this run measures, kept in run.json and the "
            + "history: the commit or version under test, e.g. --label \"$(git rev-parse --short HEAD)\".")
    String label;

    @Option(names = "--slo", paramLabel = "OBJECTIVES", description = "Gate the run on objectives, e.g. \"p99<5ms, "
            + "errors=0, throughput>20000, cpuPerRequest<60us\" (figures: perflab history show --help); exit 3 when one "
            + "is missed.")
    String slo;

    @Option(names = "--no-regression", description = "Gate the run on its history: exit 4 when throughput, p99 or CPU "
            + "per request is worse than the earlier runs of its configuration beyond their noise (docs/history.md).")
    boolean noRegression;

    @Option(names = "--junit", paramLabel = "FILE", description = "With --slo or --no-regression: write the verdict as "
            + "JUnit XML, one test case per objective and check.")
    Path junit;

    /** The gate --slo, --no-regression and --junit ask for, checked; null for none. */
    Gate gate(perflab.core.config.RunConfig.Recording recording) {
        return Gate.of(slo, noRegression, junit, recording);
    }

    @Option(names = "--metrics-export", paramLabel = "prometheus=[HOST:]PORT", description = "Serve the run's seconds "
            + "(throughput, latency, SUT CPU and memory, GC; labelled phase=warmup|window) at /metrics for a Prometheus "
            + "server to scrape while it drives; on 127.0.0.1 unless HOST is given (docs/history.md).")
    String metricsExport;

    /** Where the run is recorded and exported: --history, --label and --metrics-export, resolved against the environment. */
    perflab.core.config.RunConfig.Recording recording() {
        return recording(history, label, metricsExport);
    }

    /** --history, --label and --metrics-export as run and tune take them, checked before anything is written. */
    static perflab.core.config.RunConfig.Recording recording(String history, String label, String metricsExport) {
        if (metricsExport != null) {
            perflab.experiment.run.MetricsExport.parse(metricsExport);
        }
        return perflab.history.HistoryFile.recording(history, label, System.getenv()).withMetricsExport(metricsExport);
    }

    /** The --clients values, in the order given; more than one makes a client-scaling sweep. */
    List<Integer> clientCounts() {
        List<Integer> counts = new ArrayList<>();
        for (String part : clients.split(",")) {
            int n;
            try {
                n = Integer.parseInt(part.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--clients: '" + clients + "' is not a number or a list of numbers such as 1,8,16");
            }
            if (n < 1 || n > 100_000) {
                throw new IllegalArgumentException("--clients must be within 1..100000, got " + n);
            }
            if (counts.contains(n)) {
                throw new IllegalArgumentException("--clients: " + n + " is given twice");
            }
            counts.add(n);
        }
        return counts;
    }

    /**
     * The load of one run, with the first --clients value (a sweep replaces it per point).
     *
     * @param workloadSettings the workload's own traffic settings given, checked ({@link WorkloadOptions})
     */
    /** A --preset the workload does not have is refused here, in one line (its flags were added before the parse). */
    void checkPreset(perflab.core.workload.Workload workload) {
        if (preset != null) {
            workload.preset(preset);
        }
    }

    RunConfig.Load toLoad(Map<String, String> workloadSettings) {
        int clients = clientCounts().get(0);
        if (duration != null && requests != null) {
            throw new IllegalArgumentException("give --duration or --requests, not both");
        }
        String sched = schedule.toLowerCase(Locale.ROOT);
        if (!sched.equals("constant") && !sched.equals("poisson")) {
            throw new IllegalArgumentException("--schedule: '" + schedule + "' is not constant or poisson");
        }
        double r = rate == null ? 0 : Quantities.rate("--rate", rate);
        long count = requests == null ? 0 : Quantities.count("--requests", requests);
        if (requests != null && count < 1) {
            throw new IllegalArgumentException("--requests must be at least 1");
        }
        Duration window = count > 0 ? null : positive("--duration", duration == null ? "20s" : duration);
        long warmupCount = warmupRequests == null ? 0 : Quantities.count("--warmup-requests", warmupRequests);
        boolean auto = warmup.trim().toLowerCase(Locale.ROOT).startsWith("auto");
        Duration warm = auto ? autoWarmupMax(warmup.trim()) : Quantities.duration("--warmup", warmup);
        Duration think = Quantities.duration("--think-time", thinkTime);
        if (r > 0 && !think.isZero()) {
            throw new IllegalArgumentException("--think-time applies to the closed model only; drop it or --rate");
        }
        ConnectionPolicy.parse(keepalive);
        if (deepCheck < 0 || deepCheck > 1) {
            throw new IllegalArgumentException("--deep-check must be within 0..1, got " + deepCheck);
        }
        String protocol = http(http);
        if (streamsPerConnection < 1 || streamsPerConnection > 1000) {
            throw new IllegalArgumentException("--streams-per-connection must be within 1..1000, got " + streamsPerConnection);
        }
        if (streamsPerConnection > 1 && protocol.equals("http1")) {
            throw new IllegalArgumentException("--streams-per-connection applies to --http h2c only (HTTP/1.1 carries one request at a time)");
        }
        long s = seed != null ? seed : new java.util.SplittableRandom().nextLong(1, Long.MAX_VALUE);
        return new RunConfig.Load(clients, r, sched, window, count, warm, warmupCount, think,
                keepalive.toLowerCase(Locale.ROOT), positive("--timeout", timeout), s, deepCheck, protocol,
                streamsPerConnection, workloadSettings, auto && warmupCount == 0);
    }

    /** The maximum of "auto" or "auto:MAX". */
    private static Duration autoWarmupMax(String value) {
        String rest = value.substring("auto".length());
        if (rest.isEmpty()) {
            return Quantities.duration("--warmup", AUTO_WARMUP_MAX);
        }
        if (!rest.startsWith(":") || rest.length() == 1) {
            throw new IllegalArgumentException("--warmup: '" + value + "' is not auto, auto:MAX (auto:3m) or a time (30s)");
        }
        return positive("--warmup auto:MAX", rest.substring(1));
    }

    /** The protocol names every command takes (the SUT's `http` setting uses the same): http1 or h2c. */
    static String http(String value) {
        return perflab.driver.LoadSpec.HttpVersion.parse(value).label();
    }

    private static Duration positive(String name, String text) {
        Duration d = Quantities.duration(name, text);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be above 0, got '" + text + "'");
        }
        return d;
    }
}

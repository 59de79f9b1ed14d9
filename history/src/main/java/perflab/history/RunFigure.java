package perflab.history;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The figures the history keeps of every run, read from summary.json (docs/results.md) by one path each, so that the
 * store, {@code history show} and a gate's objectives name them alike. A figure a run does not have (no GC log, no
 * database) is not recorded for it, rather than recorded as 0.
 */
public enum RunFigure {
    THROUGHPUT("throughput", "req/s", Better.HIGHER, true, "successful requests per second of the window",
            s -> number(s, "throughput")),
    SUCCESSES("successes", "", Better.HIGHER, true, "successful requests in the window", s -> number(s, "successes")),
    ERRORS("errors", "", Better.LOWER, true, "failed requests in the window", s -> number(s, "errors", "total")),
    P50("p50", "ms", Better.LOWER, true, "median latency", s -> number(s, "latencyMs", "p50")),
    P90("p90", "ms", Better.LOWER, true, "90th percentile latency", s -> number(s, "latencyMs", "p90")),
    P99("p99", "ms", Better.LOWER, true, "99th percentile latency", s -> number(s, "latencyMs", "p99")),
    P999("p999", "ms", Better.LOWER, true, "99.9th percentile latency", s -> number(s, "latencyMs", "p999")),
    MAX("max", "ms", Better.LOWER, true, "the slowest successful request", s -> number(s, "latencyMs", "max")),
    CPU_PER_REQUEST("cpuPerRequest", "µs", Better.LOWER, false,
            "CPU of the server side (the SUT, and its database when perflab started one) per successful request",
            s -> number(s, "database", "sutAndDatabaseCpuMicrosPerRequest").or(() -> number(s, "sut", "cpuMicrosPerRequest"))),
    PER_CPU_SECOND("perCpuSecond", "req/CPU-s", Better.HIGHER, false,
            "successful requests per CPU-second of the server side",
            s -> number(s, "database", "requestsPerSutAndDatabaseCpuSecond").or(() -> number(s, "sut", "requestsPerCpuSecond"))),
    SUT_CPU_PER_REQUEST("sutCpuPerRequest", "µs", Better.LOWER, false, "the SUT's own CPU per successful request",
            s -> number(s, "sut", "cpuMicrosPerRequest")),
    RSS("rss", "MiB", Better.LOWER, false, "the SUT's mean resident memory over the window", s -> number(s, "sut", "rssMb")),
    GC_OVERHEAD("gcOverhead", "%", Better.LOWER, false, "the SUT's share of the window spent in GC pauses",
            s -> number(s, "gc", "overheadPercent")),
    GC_MAX_PAUSE("gcMaxPause", "ms", Better.LOWER, false, "the SUT's longest GC pause in the window",
            s -> number(s, "gc", "maxPauseMs")),
    GC_P99_PAUSE("gcP99Pause", "ms", Better.LOWER, false, "the 99th percentile of the SUT's GC pauses",
            s -> number(s, "gc", "p99PauseMs")),
    WARMUP("warmup", "s", Better.LOWER, false, "how long the warm-up lasted", s -> number(s, "warmup", "seconds")),
    STEADY("steady", "", Better.HIGHER, false, "1 when the window's throughput was steady, else 0",
            s -> flag(s, "steady", "steady"));

    private final String key;
    private final String unit;
    private final Better better;
    private final boolean perKind;
    private final String description;
    private final Function<JsonNode, Optional<Double>> read;

    RunFigure(String key, String unit, Better better, boolean perKind, String description,
              Function<JsonNode, Optional<Double>> read) {
        this.key = key;
        this.unit = unit;
        this.better = better;
        this.perKind = perKind;
        this.description = description;
        this.read = read;
    }

    public String key() {
        return key;
    }

    public String unit() {
        return unit;
    }

    public Better better() {
        return better;
    }

    public String description() {
        return description;
    }

    /** The figure named {@code key}, e.g. {@code p99}. */
    public static Optional<RunFigure> named(String key) {
        return Arrays.stream(values()).filter(f -> f.key.equals(key)).findFirst();
    }

    /** Every figure's name, for an error message that lists them. */
    public static String names() {
        return String.join(", ", Arrays.stream(values()).map(RunFigure::key).toList());
    }

    /** Which way a figure named {@code key} in {@code scope} gets better. */
    public static Better better(String scope, String key) {
        boolean ours = Figure.RUN.equals(scope) || scope.startsWith("kind:");
        return ours ? named(key).map(RunFigure::better).orElse(Better.EITHER) : Better.EITHER;
    }

    /** Every figure of a summary.json: the run's, each request kind's, each load source's and the workload's own. */
    public static List<Figure> of(JsonNode summary) {
        List<Figure> out = new ArrayList<>();
        for (RunFigure f : values()) {
            f.read.apply(summary).ifPresent(v -> out.add(new Figure(Figure.RUN, f.key, v, f.unit)));
        }
        fields(summary.path("byKind")).forEach(kind -> {
            for (RunFigure f : values()) {
                if (f.perKind) {
                    f.read.apply(kind.getValue()).ifPresent(v -> out.add(new Figure(Figure.kind(kind.getKey()), f.key, v, f.unit)));
                }
            }
        });
        fields(summary.path("loads")).forEach(load -> {
            String scope = Figure.load(load.getKey());
            // the shared counts (started, succeeded, failed, seconds) and the kind's own figures under their own names;
            // a summary from before load sources were plugins has the kind's figures at the top of the load
            fields(load.getValue()).forEach(e -> {
                if (e.getKey().equals("figures")) {
                    leaves(scope, "", e.getValue(), out);
                } else if (!NOT_LOAD_FIGURES.contains(e.getKey())) {
                    leaf(scope, e.getKey(), e.getValue(), out);
                }
            });
        });
        leaves(Figure.WORKLOAD, "", summary.path("figures"), out);
        return out;
    }

    /**
     * The run-wide figures of several summaries (a configuration's repeats) as their means; a figure counts over the
     * runs that have it. What an experiment's gate holds a configuration to.
     */
    public static List<Figure> meansOf(List<JsonNode> summaries) {
        List<Figure> out = new ArrayList<>();
        for (RunFigure f : values()) {
            double[] values = summaries.stream().map(f.read).flatMap(java.util.Optional::stream).mapToDouble(v -> v).toArray();
            if (values.length > 0) {
                out.add(new Figure(Figure.RUN, f.key, perflab.core.stats.Statistics.mean(values), f.unit));
            }
        }
        return out;
    }

    /** A load's fields that are when and how it was cut, not what it measured. */
    private static final java.util.Set<String> NOT_LOAD_FIGURES = java.util.Set.of("kind", "unit", "line", "note",
            "fromEpochMicros", "toEpochMicros", "periods");

    /** A tree's numbers, named by their path (a.b.c), as figures of {@code scope}: a workload's own are of any shape. */
    private static void leaves(String scope, String prefix, JsonNode node, List<Figure> out) {
        fields(node).forEach(e -> leaf(scope, prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out));
    }

    private static void leaf(String scope, String name, JsonNode v, List<Figure> out) {
        if (v.isNumber() && Double.isFinite(v.asDouble())) {
            out.add(new Figure(scope, name, v.asDouble(), ""));
        } else if (v.isBoolean()) {
            out.add(new Figure(scope, name, v.asBoolean() ? 1 : 0, ""));
        } else if (v.isObject()) {
            leaves(scope, name, v, out);
        }
    }

    private static List<Map.Entry<String, JsonNode>> fields(JsonNode node) {
        List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
        if (node != null && node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                out.add(it.next());
            }
        }
        return out;
    }

    static Optional<Double> number(JsonNode node, String... path) {
        JsonNode n = node;
        for (String p : path) {
            n = n.path(p);
        }
        return n.isNumber() && Double.isFinite(n.asDouble()) ? Optional.of(n.asDouble()) : Optional.empty();
    }

    private static Optional<Double> flag(JsonNode node, String... path) {
        JsonNode n = node;
        for (String p : path) {
            n = n.path(p);
        }
        return n.isBoolean() ? Optional.of(n.asBoolean() ? 1.0 : 0.0) : Optional.empty();
    }
}

package perflab.report;

import com.fasterxml.jackson.databind.JsonNode;
import perflab.core.result.ExperimentResult;
import perflab.core.result.RunSummary;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Two results side by side: the main figures of A and B, the change in %, and whether the change is beyond noise.
 * Two single runs cannot say that — a run's per-second samples are correlated, not independent — so their
 * significance column says so; experiments with repeats get Welch's t-test on the per-run values (the test is
 * given by the caller: the experiment engine's, so that there is one).
 */
public final class CompareReport {
    /** Significance level: a change with p below it is called significant. */
    public static final double ALPHA = 0.05;
    static final String ONE_RUN_EACH = "not judged: one run each";

    /**
     * One compared figure.
     *
     * @param higherIsBetter null when neither direction is better
     * @param significance   in words: "p = 0.003, significant", "not judged: one run each", ...
     */
    public record Figure(String group, String name, String unit, double a, double b, Boolean higherIsBetter,
                         String significance) {
        /** (b / a - 1) x 100; NaN when a is 0 or either is missing (0 when both are 0). */
        public double deltaPercent() {
            if (!Double.isFinite(a) || !Double.isFinite(b)) {
                return Double.NaN;
            }
            if (a == 0) {
                return b == 0 ? 0 : Double.NaN;
            }
            return (b / a - 1) * 100;
        }
    }

    private final String labelA;
    private final String labelB;
    private final List<Figure> figures;
    private final List<String> differences;
    private final List<String> notes;

    private CompareReport(String labelA, String labelB, List<Figure> figures, List<String> differences, List<String> notes) {
        this.labelA = labelA;
        this.labelB = labelB;
        this.figures = figures;
        this.differences = differences;
        this.notes = notes;
    }

    public List<Figure> figures() {
        return figures;
    }

    public List<String> differences() {
        return differences;
    }

    // ---- two runs

    public static CompareReport ofRuns(ReportRun a, ReportRun b) {
        if (a.summary() == null || b.summary() == null) {
            ReportRun missing = a.summary() == null ? a : b;
            throw new IllegalArgumentException(missing.dir() + " has no summary.json (the run did not finish); compare finished runs");
        }
        List<Figure> f = new ArrayList<>();
        run(f, a, b, "throughput", "req/s", true, RunSummary::throughput);
        run(f, a, b, "latency p50", "ms", false, s -> s.latencyMs().p50());
        run(f, a, b, "latency p99", "ms", false, s -> s.latencyMs().p99());
        run(f, a, b, "latency p99.9", "ms", false, s -> s.latencyMs().p999());
        run(f, a, b, "errors", "", false, s -> (double) s.errors().getOrDefault("total", 0L));
        kinds(f, a, b);
        run(f, a, b, "SUT CPU per request", "µs", false, s -> s.sut() == null ? null : s.sut().cpuMicrosPerRequest());
        run(f, a, b, "SUT CPU", "% of a core", null, s -> s.sut() == null ? null : s.sut().cpuPercent());
        run(f, a, b, "SUT RSS", "MB", false, s -> s.sut() == null ? null : s.sut().rssMb());
        // a run whose database is a companion perflab measured (trade's PostgreSQL); absent on both sides otherwise
        run(f, a, b, "database CPU per request", "µs", false, s -> s.database() == null ? null : s.database().cpuMicrosPerRequest());
        run(f, a, b, "SUT + database CPU per request", "µs", false,
                s -> s.database() == null ? null : s.database().sutAndDatabaseCpuMicrosPerRequest());
        run(f, a, b, "GC overhead", "%", false, s -> s.gc() == null ? null : s.gc().overheadPercent());
        run(f, a, b, "GC total pause", "ms", false, s -> s.gc() == null ? null : s.gc().totalPauseMs());
        run(f, a, b, "GC max pause", "ms", false, s -> s.gc() == null ? null : s.gc().maxPauseMs());
        List<String> notes = new ArrayList<>();
        notes.add("Significance: not judged — one run each, and a run's per-second samples are correlated, not "
                + "independent samples. Repeat each side (perflab tune ... --repeat 3) and compare the experiment "
                + "directories for Welch's t-test on the per-run means.");
        for (ReportRun r : List.of(a, b)) {
            if (!r.summary().complete()) {
                notes.add(r.dir() + " is incomplete: " + r.summary().endReason());
            }
            if (r.summary().steady() != null && !r.summary().steady().steady()) {
                notes.add(r.dir() + " was not steady (cv " + ReportNumbers.num(r.summary().steady().cv()) + "): its totals mix a ramp or drift");
            }
        }
        return new CompareReport(a.dir().toString(), b.dir().toString(), f, runDifferences(a.run(), b.run()), notes);
    }

    private static void run(List<Figure> f, ReportRun a, ReportRun b, String name, String unit, Boolean higher,
                            Function<RunSummary, Double> value) {
        Double va = value.apply(a.summary());
        Double vb = value.apply(b.summary());
        if (va == null && vb == null) {
            return;
        }
        f.add(new Figure(null, name, unit, va == null ? Double.NaN : va, vb == null ? Double.NaN : vb, higher, ONE_RUN_EACH));
    }

    /** Throughput and p99 per request kind, for the kinds either run had (when either had more than one). */
    private static void kinds(List<Figure> f, ReportRun a, ReportRun b) {
        Map<String, RunSummary.Kind> ka = a.summary().byKind() == null ? Map.of() : a.summary().byKind();
        Map<String, RunSummary.Kind> kb = b.summary().byKind() == null ? Map.of() : b.summary().byKind();
        if (ka.size() < 2 && kb.size() < 2) {
            return;
        }
        java.util.Set<String> names = new java.util.LinkedHashSet<>(ka.keySet());
        names.addAll(kb.keySet());
        for (String kind : names) {
            run(f, a, b, kind + " throughput", "req/s", true, s -> kind(s, kind) == null ? null : kind(s, kind).throughput());
            run(f, a, b, kind + " latency p99", "ms", false, s -> kind(s, kind) == null ? null : kind(s, kind).latencyMs().p99());
            run(f, a, b, kind + " errors", "", false,
                    s -> kind(s, kind) == null ? null : (double) kind(s, kind).errors().getOrDefault("total", 0L));
        }
    }

    private static RunSummary.Kind kind(RunSummary s, String kind) {
        return s.byKind() == null ? null : s.byKind().get(kind);
    }

    /** The settings that differ between two runs (configuration and the JVM the SUT really ran), "key: a → b". */
    static List<String> runDifferences(JsonNode a, JsonNode b) {
        Map<String, String> fa = new LinkedHashMap<>();
        Map<String, String> fb = new LinkedHashMap<>();
        flatten("", a.path("config"), fa);
        flatten("", b.path("config"), fb);
        for (String k : new String[]{"collector", "heapMaxMb", "javaVersion", "availableProcessors", "useTransparentHugePages"}) {
            flatten("jvm." + k, a.path("effectiveJvm").path(k), fa);
            flatten("jvm." + k, b.path("effectiveJvm").path(k), fb);
        }
        Set<String> ignored = Set.of("out", "seed", "load.seed", "quiet", "sut.port");
        List<String> out = new ArrayList<>();
        Set<String> keys = new java.util.LinkedHashSet<>(fa.keySet());
        keys.addAll(fb.keySet());
        for (String k : keys) {
            if (!ignored.contains(k) && !Objects.equals(fa.get(k), fb.get(k))) {
                out.add(k + ": " + Objects.requireNonNullElse(fa.get(k), "—") + " → " + Objects.requireNonNullElse(fb.get(k), "—"));
            }
        }
        return out;
    }

    private static void flatten(String prefix, JsonNode n, Map<String, String> out) {
        if (n.isMissingNode() || n.isNull()) {
            return;
        }
        if (n.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = n.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out);
            }
        } else if (n.isArray()) {
            if (n.size() > 0) {
                out.put(prefix, n.toString());
            }
        } else {
            out.put(prefix, n.asText());
        }
    }

    // ---- two experiments

    /**
     * Two experiments (e.g. the same experiment before and after a change): configurations matched by name (or,
     * when each has one, with each other), per-run means compared with {@code welchP} (two-sided p of Welch's
     * t-test on the per-run values, null when it cannot be computed).
     */
    public static CompareReport ofExperiments(String labelA, ExperimentResult a, String labelB, ExperimentResult b,
                                              BiFunction<double[], double[], Double> welchP) {
        List<ExperimentResult.Configuration[]> pairs = new ArrayList<>();
        if (a.configurations().size() == 1 && b.configurations().size() == 1) {
            pairs.add(new ExperimentResult.Configuration[]{a.configurations().get(0), b.configurations().get(0)});
        } else {
            for (ExperimentResult.Configuration ca : a.configurations()) {
                for (ExperimentResult.Configuration cb : b.configurations()) {
                    if (ca.name().equals(cb.name())) {
                        pairs.add(new ExperimentResult.Configuration[]{ca, cb});
                    }
                }
            }
        }
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException("the two experiments have no configuration in common (by name); compare "
                    + "experiments that ran the same configurations, or two single-configuration experiments");
        }
        List<Figure> f = new ArrayList<>();
        for (ExperimentResult.Configuration[] p : pairs) {
            String group = pairs.size() == 1 && !p[0].name().equals(p[1].name()) ? p[0].name() + " vs " + p[1].name() : p[0].name();
            experiment(f, group, p, "throughput", "req/s", true, ExperimentResult.Run::throughput, welchP);
            experiment(f, group, p, "latency p99", "ms", false, ExperimentResult.Run::p99Ms, welchP);
            experiment(f, group, p, "latency mean", "ms", false, ExperimentResult.Run::meanMs, welchP);
            experiment(f, group, p, "errors", "", false, r -> r.errors() == null ? null : r.errors().doubleValue(), welchP);
            experiment(f, group, p, "SUT CPU", "% of a core", null, ExperimentResult.Run::sutCpuPercent, welchP);
            experiment(f, group, p, "GC overhead", "%", false, ExperimentResult.Run::gcOverheadPercent, welchP);
            experiment(f, group, p, "GC total pause", "ms", false, ExperimentResult.Run::gcTotalPauseMs, welchP);
        }
        List<String> notes = List.of("Figures are means over each configuration's complete runs; significance is Welch's "
                + "two-sided t-test on the per-run values (alpha " + ALPHA + "), never on per-second samples.");
        return new CompareReport(labelA, labelB, f, List.of(), notes);
    }

    private static void experiment(List<Figure> f, String group, ExperimentResult.Configuration[] p, String name,
                                   String unit, Boolean higher, Function<ExperimentResult.Run, Double> value,
                                   BiFunction<double[], double[], Double> welchP) {
        double[] a = values(p[0], value);
        double[] b = values(p[1], value);
        if (a.length == 0 && b.length == 0) {
            return;
        }
        String significance;
        if (a.length < 2 || b.length < 2) {
            significance = "not judged: fewer than 2 runs on a side";
        } else {
            Double pValue = welchP.apply(a, b);
            significance = pValue == null ? "not judged: no spread"
                    : String.format(Locale.ROOT, "p = %.3g, %s", pValue, pValue < ALPHA ? "significant" : "not significant");
        }
        f.add(new Figure(group, name, unit, mean(a), mean(b), higher, significance));
    }

    /** The per-run values of a configuration's complete runs. */
    private static double[] values(ExperimentResult.Configuration c, Function<ExperimentResult.Run, Double> value) {
        return c.runs().stream().filter(r -> "ok".equals(r.status())).map(value).filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue).toArray();
    }

    private static double mean(double[] v) {
        if (v.length == 0) {
            return Double.NaN;
        }
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    // ---- output

    /** The console table. */
    public String text() {
        StringBuilder out = new StringBuilder();
        out.append("A: ").append(labelA).append('\n').append("B: ").append(labelB).append('\n');
        int nameWidth = 6;
        for (Figure f : figures) {
            nameWidth = Math.max(nameWidth, label(f).length());
        }
        String row = "%-" + nameWidth + "s  %14s  %14s  %8s  %s%n";
        String group = null;
        out.append(String.format(Locale.ROOT, row, "figure", "A", "B", "delta", "significance"));
        for (Figure f : figures) {
            if (f.group() != null && !f.group().equals(group)) {
                group = f.group();
                out.append("[").append(group).append("]\n");
            }
            out.append(String.format(Locale.ROOT, row, label(f), value(f, f.a()), value(f, f.b()),
                    ReportNumbers.signedPercent(f.deltaPercent()), f.significance()));
        }
        if (!differences.isEmpty()) {
            out.append("settings that differ (A → B):\n");
            differences.forEach(d -> out.append("  ").append(d).append('\n'));
        }
        notes.forEach(n -> out.append(n).append('\n'));
        return out.toString();
    }

    /** Counts (no unit) of single runs are whole numbers; means of counts are not. */
    private static String value(Figure f, double v) {
        return f.unit().isEmpty() && v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : ReportNumbers.num(v);
    }

    private static String label(Figure f) {
        return f.unit().isEmpty() ? f.name() : f.name() + " (" + f.unit() + ")";
    }

    /** The HTML page: the table, and the runs' charts overlaid when given. */
    public HtmlPage page(List<RunReportCharts.Labeled> runs) throws IOException {
        HtmlPage page = new HtmlPage("perflab compare");
        Map<String, String> sides = new LinkedHashMap<>();
        sides.put("A", labelA);
        sides.put("B", labelB);
        page.facts(sides);
        boolean groups = figures.stream().anyMatch(f -> f.group() != null);
        HtmlTable t = groups ? new HtmlTable("configuration", "figure", "A#", "B#", "delta#", "significance")
                : new HtmlTable("figure", "A#", "B#", "delta#", "significance");
        for (Figure f : figures) {
            String cls = null;
            double d = f.deltaPercent();
            if (f.higherIsBetter() != null && Double.isFinite(d) && d != 0 && f.significance().contains(", significant")) {
                cls = (d > 0) == f.higherIsBetter() ? "good" : "bad";
            }
            String[] cells = {label(f), value(f, f.a()), value(f, f.b()), ReportNumbers.signedPercent(d), f.significance()};
            if (groups) {
                String[] withGroup = new String[cells.length + 1];
                withGroup[0] = f.group() == null ? "" : f.group();
                System.arraycopy(cells, 0, withGroup, 1, cells.length);
                cells = withGroup;
            }
            t.styledRow(cls, cells);
        }
        page.heading("Figures").table(t);
        notes.forEach(n -> page.notice("info", n));
        if (!differences.isEmpty()) {
            page.heading("Settings that differ (A → B)");
            HtmlTable dt = new HtmlTable("setting");
            differences.forEach(dt::row);
            page.table(dt);
        }
        if (!runs.isEmpty()) {
            page.heading("Charts");
            page.chart(RunReportCharts.throughputOverTime("throughput", runs));
            Chart spectrum = RunReportCharts.latencySpectrum("latency-spectrum", runs);
            if (!spectrum.series().isEmpty()) {
                page.chart(spectrum);
            }
            if (RunReportCharts.hasGc(runs)) {
                page.chart(RunReportCharts.gcPauses("gc-pauses", runs));
            }
            if (RunReportCharts.hasSut(runs)) {
                page.chart(RunReportCharts.sutResources("sut-resources", runs));
            }
        }
        return page;
    }
}

package perflab.report;

import perflab.core.result.ExperimentResult;
import perflab.core.result.ExperimentResult.Configuration;
import perflab.core.result.ExperimentResult.Gain;
import perflab.core.result.ExperimentResult.Interval;
import perflab.core.result.ExperimentResult.Run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * An experiment's tables the way the studies printed them: report.md (the configurations' table, e.g.
 * "| GC policy | heap | throughput | GC overhead | total GC pause |" as seed 000's Table 4.1.1.1.2; for steps the
 * cumulative gain table of its Figure 4.1.1; for a rate sweep the latency-versus-throughput curve) and
 * results.csv (one row per configuration).
 */
public final class ExperimentTables {
    private static final Map<String, String> HEADERS = Map.ofEntries(
            Map.entry("gc", "GC policy"), Map.entry("heap", "heap"), Map.entry("java-home", "JDK"),
            Map.entry("jdk", "JDK"), Map.entry("jvm", "JVM flags"), Map.entry("server-threads", "server threads"),
            Map.entry("max-requests-per-connection", "max requests per connection"),
            Map.entry("keepalive", "keep-alive"), Map.entry("access-log", "access log"),
            Map.entry("server-metrics", "server metrics"), Map.entry("clients", "clients"),
            Map.entry("payload", "payload"), Map.entry("cpus", "SUT CPUs"), Map.entry("http", "HTTP"),
            Map.entry("rate", "target rate (req/s)"), Map.entry("stack", "stack"), Map.entry("operation", "operation"));

    private ExperimentTables() {
    }

    /** The column header of a setting. */
    public static String header(String setting) {
        return HEADERS.getOrDefault(setting, setting);
    }

    public static String markdown(ExperimentResult r) {
        StringBuilder out = new StringBuilder();
        out.append("# Experiment ").append(r.name()).append("\n\n");
        if (r.description() != null && !r.description().isBlank()) {
            out.append(r.description().strip()).append("\n\n");
        }
        out.append(String.format(Locale.ROOT, "%s on %s (%s), %s; %d configurations x %d repetitions; %d of %d runs done (%s).%n%n",
                r.workload(), r.stack(), r.operation(), r.kind(), r.configurations().size(), r.repeat(), r.runsDone(),
                r.runsTotal(), r.status()));
        if (r.repeatStop() != null) {
            out.append("Repetitions were adaptive: ").append(r.repeatStop()).append(".\n\n");
        }
        switch (r.kind()) {
            case "steps" -> steps(out, r);
            case "rate-sweep" -> rateSweep(out, r);
            case "rate-search" -> rateSearch(out, r);
            default -> matrix(out, r);
        }
        out.append('\n');
        if (r.rateSearch() != null) {
            out.append("**Capacity:** ").append(verdict(r)).append('\n');
        } else if (r.best() != null) {
            out.append("**Best configuration:** ").append(verdict(r)).append('\n');
        }
        for (Configuration c : r.configurations()) {
            if (c.bimodal() != null) {
                out.append("\n**Two groups of runs:** ").append(bimodal(c)).append('\n');
            }
        }
        if (r.rateSearch() == null) {
            out.append("\nThroughput and p99 are the means of the configuration's complete runs, ± half the 95 % interval of the "
                + "mean (Student t); a gain's p is Welch's two-sided t-test on the per-run values against the baseline "
                    + "(the first configuration); \"noise\" means p >= 0.05.\n");
        }
        if (!r.failures().isEmpty()) {
            out.append("\n## Failures\n\n| configuration | repetition | reason |\n|---|---:|---|\n");
            for (ExperimentResult.Failure f : r.failures()) {
                out.append("| ").append(f.label()).append(" | ").append(f.repetition()).append(" | ")
                        .append(cell(f.reason())).append(" |\n");
            }
        }
        return out.toString();
    }

    /**
     * The experiment's answer in one paragraph, for every page that gives it: the best configuration with the
     * evidence that made it best, or why there is none with the leading candidates and their 95 % intervals.
     */
    public static String verdict(ExperimentResult r) {
        if (r.rateSearch() != null) {
            return capacity(r.rateSearch());
        }
        ExperimentResult.Best best = r.best();
        ExperimentResult.Evidence e = best.evidence();
        if (best.label() != null) {
            return String.format(Locale.ROOT, "%s (`%s`), %.1f req/s%s. Rule: %s (%d of %d configurations qualified).",
                    best.name(), best.label(), best.throughput(), e == null ? ""
                            : String.format(Locale.ROOT, ", %+.1f%% over %s (p %s < %s, at least %s%% asked)",
                            e.gainPercent(), nameOf(r, e.comparedWith()), num(e.pValue()), num(e.alpha()), num(e.minEffectPercent())),
                    best.rule(), best.qualified(), r.configurations().size());
        }
        StringBuilder out = new StringBuilder("none — ").append(best.reason()).append('.');
        List<Configuration> leading = r.configurations().stream().filter(c -> c.stats() != null && c.stats().throughput() != null)
                .sorted((a, b) -> Double.compare(b.stats().throughput().mean(), a.stats().throughput().mean())).limit(3).toList();
        if (e != null && !leading.isEmpty()) {
            out.append(" Leading: ");
            for (int i = 0; i < leading.size(); i++) {
                out.append(i == 0 ? "" : ", ").append(leading.get(i).name()).append(' ')
                        .append(ExperimentReport.interval(leading.get(i).stats().throughput())).append(" req/s");
            }
            out.append(" (means ± half their 95 % interval).");
        }
        return out.append(" Rule: ").append(best.rule()).append('.').toString();
    }

    /** A capacity search's answer in one paragraph: the capacity, the first rate that failed, why the search ended. */
    public static String capacity(ExperimentResult.RateSearch s) {
        StringBuilder out = new StringBuilder();
        if (s.capacity() == null) {
            out.append("none found — no rate passed");
        } else {
            out.append(trim(s.capacity())).append(' ').append(s.rateUnit())
                    .append(s.confirmed() ? " (confirmed by a second trial)" : " (one trial)");
        }
        out.append(s.firstFailedRate() == null ? "; no rate failed" : "; the first rate that failed: "
                + trim(s.firstFailedRate()) + " " + s.rateUnit());
        out.append(". A trial passes with ").append(s.goal()).append('.');
        if (s.stopReason() != null) {
            out.append(" The search ended: ").append(s.stopReason()).append('.');
        }
        if (s.capacityRun() != null) {
            out.append(String.format(Locale.ROOT, " At the capacity (`%s`): %s req/s, SUT CPU %s%%", s.capacityRun(),
                    num(s.throughputAtCapacity()), num(s.sutCpuPercentAtCapacity())));
            List<String> figures = new ArrayList<>();
            s.figuresAtCapacity().forEach((k, v) -> {
                if (v instanceof Number n) {
                    figures.add(k + " " + num(n.doubleValue()));
                } else if (v instanceof Map<?, ?> m && m.get("p95") instanceof Number p95) {
                    figures.add(k + " p95 " + num(p95.doubleValue()));
                }
            });
            out.append(figures.isEmpty() ? "." : "; " + String.join(", ", figures) + ".");
        }
        return out.toString();
    }

    private static void rateSearch(StringBuilder out, ExperimentResult r) {
        ExperimentResult.RateSearch s = r.rateSearch();
        if (s == null) {
            return;
        }
        List<String> head = List.of("trial", "rate (" + s.rateUnit() + ")", "carried", s.latency() + " (ms)", "failures",
                "driver p99 (ms)", "SUT CPU", "result");
        row(out, head);
        out.append(separator(head.size(), 0));
        for (ExperimentResult.SearchTrial t : s.trials()) {
            Configuration c = r.configurations().stream().filter(x -> x.label().equals(t.label())).findFirst().orElse(null);
            Stats st = c == null ? null : new Stats(c);
            row(out, List.of(Integer.toString(t.trial()), trim(t.rate()), t.achieved() == null ? "—" : num(t.achieved()),
                    t.latencyMs() == null ? "—" : num(t.latencyMs()), Long.toString(t.failures()),
                    st == null ? "—" : st.p99(), st == null ? "—" : st.cpu(), (t.passed() ? "pass" : "fail: " + cell(t.why()))));
        }
    }

    /** A configuration whose runs fell into two groups, said in words: which runs, how far apart, what else differed. */
    public static String bimodal(Configuration c) {
        ExperimentResult.Bimodality b = c.bimodal();
        return String.format(Locale.ROOT, "%s — runs %s at %.1f req/s, runs %s at %.1f req/s: two behaviours, not noise, "
                        + "so its interval is not a measure of precision. They differed in: %s.", c.name(),
                join(b.lowRuns()), b.lowMean(), join(b.highRuns()), b.highMean(), b.differedIn());
    }

    private static String join(List<Integer> runs) {
        return String.join(", ", runs.stream().map(String::valueOf).toList());
    }

    private static String nameOf(ExperimentResult r, String label) {
        return r.configurations().stream().filter(c -> c.label().equals(label)).map(Configuration::name).findFirst().orElse(label);
    }

    private static void matrix(StringBuilder out, ExperimentResult r) {
        List<String> dims = r.dimensions();
        boolean thp = showThp(r);
        List<String> head = new ArrayList<>();
        if (dims.isEmpty()) {
            head.add("configuration");
        }
        dims.forEach(d -> head.add(header(d)));
        head.addAll(List.of("runs", "throughput (req/s)", "± 95 %", "p99 (ms)", "GC overhead", "total GC pause",
                "SUT CPU", "collector"));
        if (thp) {
            head.add("THP");
        }
        head.addAll(List.of("gain", "p"));
        row(out, head);
        out.append(separator(head.size(), dims.isEmpty() ? 1 : dims.size()));
        String previousFirst = null;
        for (Configuration c : r.configurations()) {
            List<String> cells = new ArrayList<>();
            if (dims.isEmpty()) {
                cells.add(c.name());
            }
            for (int i = 0; i < dims.size(); i++) {
                String v = value(dims.get(i), c.settings().get(dims.get(i)));
                // group rows by the first setting, as the study's table does
                cells.add(i == 0 && dims.size() > 1 && Objects.equals(v, previousFirst) ? "" : v);
                if (i == 0) {
                    previousFirst = v;
                }
            }
            figures(cells, c);
            cells.add(collector(c));
            if (thp) {
                cells.add(thp(c));
            }
            cells.add(c.baseline() ? "baseline" : gain(c.gain()));
            cells.add(c.baseline() ? "" : p(c.gain()));
            row(out, cells);
        }
    }

    private static void steps(StringBuilder out, ExperimentResult r) {
        boolean thp = showThp(r);
        List<String> head = new ArrayList<>(List.of("step", "adds", "runs", "throughput (req/s)", "± 95 %",
                "cumulative gain", "p", "gain over previous step", "p (step)", "p99 (ms)", "GC overhead", "total GC pause",
                "SUT CPU", "collector"));
        if (thp) {
            head.add("THP");
        }
        row(out, head);
        out.append(separator(head.size(), 2));
        for (Configuration c : r.configurations()) {
            Stats s = new Stats(c);
            List<String> cells = new ArrayList<>(List.of(c.name(),
                    c.added() == null || c.added().isEmpty() ? "—" : settings(c.added()), s.runs(), s.throughput(),
                    s.ci(), c.baseline() ? "baseline" : gain(c.gain()), c.baseline() ? "" : p(c.gain()),
                    c.baseline() ? "" : gain(c.stepGain()), c.baseline() ? "" : p(c.stepGain()), s.p99(), s.gcOverhead(),
                    s.gcPause(), s.cpu(), collector(c)));
            if (thp) {
                cells.add(thp(c));
            }
            row(out, cells);
        }
    }

    private static void rateSweep(StringBuilder out, ExperimentResult r) {
        List<String> head = List.of("target rate (req/s)", "runs", "throughput (req/s)", "± 95 %", "p99 (ms)", "errors",
                "kept up", "meets goal", "GC overhead", "SUT CPU");
        row(out, head);
        out.append(separator(head.size(), 0));
        ExperimentResult.RateSweep sweep = r.rateSweep();
        for (int i = 0; i < r.configurations().size(); i++) {
            Configuration c = r.configurations().get(i);
            ExperimentResult.RatePoint p = sweep == null ? null : sweep.points().get(i);
            Stats s = new Stats(c);
            row(out, List.of(p == null ? c.name() : trim(p.rate()), s.runs(), s.throughput(), s.ci(), s.p99(),
                    c.stats() == null ? "—" : Long.toString(c.stats().errors()),
                    p == null || p.throughput() == null ? "—" : p.keptUp() ? "yes" : "no",
                    p == null || p.throughput() == null ? "—" : p.meetsGoal() ? "yes" : "no", s.gcOverhead(), s.cpu()));
        }
        if (sweep != null) {
            out.append('\n');
            out.append("Knee of the curve (Kneedle on target rate vs p99): ")
                    .append(sweep.kneeRate() == null ? "none found" : trim(sweep.kneeRate()) + " req/s").append(".\n");
            out.append("Highest rate meeting the goal (").append(sweep.goal()).append("): ")
                    .append(sweep.maxRateMeetingGoal() == null ? "none"
                            : String.format(Locale.ROOT, "%s req/s (throughput %.1f req/s)", trim(sweep.maxRateMeetingGoal()),
                            sweep.throughputAtMaxRate()))
                    .append(".\n");
        }
    }

    /**
     * The hottest frames of each profiled run (`--profile`, {@code profile-<process>.collapsed} in the run's
     * directory under {@code experimentDir}), five per process; empty when no run was profiled.
     */
    public static String profiles(ExperimentResult r, java.nio.file.Path experimentDir) {
        StringBuilder sb = new StringBuilder();
        for (Configuration c : r.configurations()) {
            for (Run run : c.runs()) {
                if (run.directory() == null) {
                    continue;
                }
                java.nio.file.Path runDir = experimentDir.resolve(run.directory());
                for (java.nio.file.Path collapsed : ProfileFrames.collapsedFiles(runDir)) {
                    String process = ProfileFrames.processOf(collapsed);
                    List<String> frames = new ArrayList<>();
                    try {
                        for (ProfileFrames.Frame f : ProfileFrames.top(collapsed, 5)) {
                            frames.add(String.format(Locale.ROOT, "`%s` %.1f %%", f.name(), f.selfPercent()));
                        }
                    } catch (java.io.IOException e) {
                        frames.add("unreadable: " + e.getMessage());
                    }
                    sb.append("- ").append(run.directory()).append(", ").append(process).append(": ")
                            .append(frames.isEmpty() ? "no samples" : String.join(", ", frames)).append('\n');
                }
            }
        }
        return sb.length() == 0 ? "" : "\n## Hottest frames of the profiled runs (self samples)\n\n" + sb;
    }

    public static String csv(ExperimentResult r) {
        List<String> dims = r.dimensions();
        List<String> head = new ArrayList<>(List.of("label", "name"));
        head.addAll(dims);
        head.addAll(List.of("status", "runs", "throughputMean", "throughputSd", "throughputCiLow", "throughputCiHigh",
                "p99MeanMs", "p99CiLowMs", "p99CiHighMs", "meanLatencyMs", "gcOverheadPercent", "gcTotalPauseMs",
                "sutCpuPercent", "errors", "gainPercent", "gainPValue", "gainSignificant", "stepGainPercent",
                "stepGainPValue", "meetsObjective", "best", "collector", "transparentHugePages", "failureReason"));
        ExperimentResult.RateSearch search = r.rateSearch();
        if (search != null) {
            head.addAll(List.of("achievedRate", "searchLatencyMs", "failures", "passed", "verdict"));
        }
        StringBuilder out = new StringBuilder(String.join(",", head)).append('\n');
        String best = r.best() == null ? null : r.best().label();
        for (Configuration c : r.configurations()) {
            List<String> cells = new ArrayList<>(List.of(c.label(), c.name()));
            dims.forEach(d -> cells.add(c.settings().getOrDefault(d, "")));
            var s = c.stats();
            Interval t = s == null ? null : s.throughput();
            Interval p = s == null ? null : s.p99Ms();
            cells.addAll(List.of(c.status(), s == null ? "0" : Integer.toString(s.runs()),
                    t == null ? "" : num(t.mean()), t == null ? "" : num(t.sd()), t == null ? "" : num(t.ciLow()),
                    t == null ? "" : num(t.ciHigh()), p == null ? "" : num(p.mean()), p == null ? "" : num(p.ciLow()),
                    p == null ? "" : num(p.ciHigh()), s == null ? "" : num(s.meanMs()),
                    s == null ? "" : num(s.gcOverheadPercent()), s == null ? "" : num(s.gcTotalPauseMs()),
                    s == null ? "" : num(s.sutCpuPercent()), s == null ? "" : Long.toString(s.errors()),
                    c.gain() == null ? "" : num(c.gain().throughputPercent()), c.gain() == null ? "" : num(c.gain().pValue()),
                    c.gain() == null || c.gain().significant() == null ? "" : c.gain().significant().toString(),
                    c.stepGain() == null ? "" : num(c.stepGain().throughputPercent()),
                    c.stepGain() == null ? "" : num(c.stepGain().pValue()), Boolean.toString(c.meetsObjective()),
                    Boolean.toString(c.label().equals(best)), Objects.toString(collectorOrNull(c), ""),
                    thpOrNull(c) == null ? "" : thpOrNull(c).toString(), Objects.toString(c.failureReason(), "")));
            if (search != null) {
                ExperimentResult.SearchTrial trial = search.trials().stream().filter(x -> x.label().equals(c.label()))
                        .findFirst().orElse(null);
                cells.addAll(trial == null ? List.of("", "", "", "", "") : List.of(num(trial.achieved()),
                        num(trial.latencyMs()), Long.toString(trial.failures()), Boolean.toString(trial.passed()), trial.why()));
            }
            out.append(String.join(",", cells.stream().map(ExperimentTables::csvCell).toList())).append('\n');
        }
        return out.toString();
    }

    /** The figures a configuration row shows: runs, throughput ± CI, p99, GC overhead and pause, SUT CPU. */
    private static void figures(List<String> cells, Configuration c) {
        Stats s = new Stats(c);
        cells.addAll(List.of(s.runs(), s.throughput(), s.ci(), s.p99(), s.gcOverhead(), s.gcPause(), s.cpu()));
    }

    private record Stats(Configuration c) {
        String runs() {
            int n = c.stats() == null ? 0 : c.stats().runs();
            return n + (c.runs().size() == n ? "" : " of " + c.runs().size());
        }

        String throughput() {
            if (c.stats() == null) {
                return "failed".equals(c.status()) ? "failed" : "—";
            }
            return String.format(Locale.ROOT, "%.1f", c.stats().throughput().mean());
        }

        String ci() {
            Interval t = c.stats() == null ? null : c.stats().throughput();
            return t == null || t.ciHigh() == null ? "—" : String.format(Locale.ROOT, "%.1f", (t.ciHigh() - t.ciLow()) / 2);
        }

        String p99() {
            return c.stats() == null ? "—" : String.format(Locale.ROOT, "%.2f", c.stats().p99Ms().mean());
        }

        String gcOverhead() {
            return c.stats() == null || c.stats().gcOverheadPercent() == null ? "—"
                    : String.format(Locale.ROOT, "%.1f %%", c.stats().gcOverheadPercent());
        }

        String gcPause() {
            return c.stats() == null || c.stats().gcTotalPauseMs() == null ? "—"
                    : String.format(Locale.ROOT, "%.0f ms", c.stats().gcTotalPauseMs());
        }

        String cpu() {
            return c.stats() == null || c.stats().sutCpuPercent() == null ? "—"
                    : String.format(Locale.ROOT, "%.0f %%", c.stats().sutCpuPercent());
        }
    }

    private static String gain(Gain g) {
        return g == null ? "—" : String.format(Locale.ROOT, "%+.1f %%", g.throughputPercent());
    }

    private static String p(Gain g) {
        if (g == null || g.pValue() == null) {
            return "—";
        }
        return String.format(Locale.ROOT, "%s%s", g.pValue() < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "%.3f", g.pValue()),
                g.significant() ? "" : " (noise)");
    }

    private static String collectorOrNull(Configuration c) {
        return c.runs().stream().map(Run::collector).filter(Objects::nonNull).findFirst().orElse(null);
    }

    private static String collector(Configuration c) {
        return Objects.toString(collectorOrNull(c), "—");
    }

    private static Boolean thpOrNull(Configuration c) {
        return c.runs().stream().map(Run::transparentHugePages).filter(Objects::nonNull).findFirst().orElse(null);
    }

    private static String thp(Configuration c) {
        Boolean b = thpOrNull(c);
        return b == null ? "—" : b ? "on" : "off";
    }

    private static boolean showThp(ExperimentResult r) {
        return r.configurations().stream().anyMatch(c -> c.settings().getOrDefault("jvm", "").contains("HugePages")
                || Boolean.TRUE.equals(thpOrNull(c)));
    }

    private static String value(String setting, String v) {
        if (v == null) {
            return "default";
        }
        if (setting.equals("java-home")) {
            return java.nio.file.Path.of(v).getFileName().toString();
        }
        return v.isBlank() ? "(none)" : v;
    }

    private static String settings(Map<String, String> s) {
        List<String> parts = new ArrayList<>();
        s.forEach((k, v) -> parts.add(k + " " + value(k, v)));
        return String.join(", ", parts);
    }

    private static void row(StringBuilder out, List<String> cells) {
        out.append("| ").append(String.join(" | ", cells.stream().map(ExperimentTables::cell).toList())).append(" |\n");
    }

    /** The separator line: text columns (the first {@code textColumns}) left-aligned, figures right-aligned. */
    private static String separator(int columns, int textColumns) {
        StringBuilder s = new StringBuilder("|");
        for (int i = 0; i < columns; i++) {
            s.append(i < textColumns ? "---|" : "---:|");
        }
        return s.append('\n').toString();
    }

    private static String cell(String s) {
        return s == null ? "" : s.replace("|", "\\|").replace('\n', ' ');
    }

    private static String csvCell(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
            return "\"" + s.replace("\"", "\"\"") + "\"";
        }
        return s;
    }

    private static String num(Double v) {
        return v == null ? "" : trim(v);
    }

    private static String trim(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}

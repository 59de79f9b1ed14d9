package perflab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import perflab.core.result.ExperimentResult;
import perflab.core.result.ExperimentResult.Configuration;
import perflab.core.result.ExperimentResult.Gain;
import perflab.core.result.ExperimentResult.Interval;
import perflab.core.result.Json;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * report.html of an experiment (experiment.json, docs/experiments.md): the configurations' table with intervals,
 * gains and their significance, the best configuration and its rule; throughput per configuration with error
 * bars (95% interval of the mean), p99 per configuration, GC overhead and total pause per configuration, the
 * cumulative gain of steps, a rate sweep's latency-versus-throughput curve, throughput over time of every run
 * and the GC pause timeline of each configuration's first run.
 */
public final class ExperimentReport {
    public static final String RESULT_JSON = "experiment.json";

    private ExperimentReport() {
    }

    public static boolean isExperiment(Path dir) {
        return Files.isRegularFile(dir.resolve(RESULT_JSON));
    }

    public static ExperimentResult read(Path dir) throws IOException {
        ReportRun.requireDirectory(dir);
        Path file = dir.resolve(RESULT_JSON);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(dir + " is not a perflab experiment directory (no " + RESULT_JSON + ")");
        }
        try {
            return Json.read(file, ExperimentResult.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not a perflab experiment: " + e.getOriginalMessage());
        }
    }

    /** Writes {@code dir/report.html} and returns its path. */
    public static Path write(Path dir) throws IOException {
        return page(dir, read(dir)).write(dir.resolve(RunReport.FILE));
    }

    /** For the experiment engine: like {@link #write} but never fails the experiment (a warning line instead). */
    public static Path writeQuietly(Path dir, PrintStream console) {
        return RunReport.quietly(() -> write(dir), console);
    }

    public static HtmlPage page(Path dir, ExperimentResult r) throws IOException {
        HtmlPage page = new HtmlPage("perflab experiment: " + r.name());
        if (r.description() != null && !r.description().isBlank()) {
            page.paragraph(r.description().strip());
        }
        page.paragraph(String.format(Locale.ROOT, "%s on %s / %s, %s: %d configurations x %d repetitions (interleaved); %d of %d runs done, %s. Started %s.",
                r.workload(), r.stack(), r.operation(), r.kind(), r.configurations().size(), r.repeat(), r.runsDone(),
                r.runsTotal(), r.status(), r.startedAt()) + (r.repeatStop() == null ? ""
                : " Repetitions were adaptive: " + r.repeatStop() + "."));
        if (!"complete".equals(r.status())) {
            page.notice("warn", "The experiment is " + r.status() + ": " + r.runsDone() + " of " + r.runsTotal()
                    + " runs done (perflab tune --resume " + dir + " continues it).");
        }
        best(page, r);

        page.heading("Configurations");
        page.table(configurations(r));
        page.paragraph("Throughput and p99: mean of the complete runs and its 95% interval (Student t). Gain: over the "
                + "baseline (first configuration), Welch's t-test on the per-run values (two-sided, alpha 0.05); a run's "
                + "per-second samples are correlated, so the run is the unit, never the second.");
        if (r.failures() != null && !r.failures().isEmpty()) {
            page.heading("Failures");
            HtmlTable t = new HtmlTable("configuration", "repetition#", "reason");
            r.failures().forEach(f -> t.row(f.label(), Integer.toString(f.repetition()), f.reason()));
            page.table(t);
        }

        page.heading("Charts");
        List<Configuration> measured = r.configurations().stream().filter(c -> c.stats() != null && c.stats().runs() > 0).toList();
        if (!measured.isEmpty()) {
            if ("steps".equals(r.kind())) {
                page.chart(cumulativeGain(measured));
            }
            if ("rate-sweep".equals(r.kind()) && r.rateSweep() != null) {
                page.chart(rateSweep(r.rateSweep()));
            }
            if (r.rateSearch() != null) {
                page.chart(rateSearch(r.rateSearch()));
            }
            page.chart(perConfiguration("throughput-per-config", "Throughput per configuration", "requests/s", measured,
                    c -> c.stats().throughput(), "#3c6fd1")
                    .note("Mean of the complete runs; the whisker is the 95% interval of the mean."));
            page.chart(perConfiguration("p99-per-config", "p99 latency per configuration", "ms", measured,
                    c -> c.stats().p99Ms(), "#e0802b")
                    .note("Mean of the runs' p99; the whisker is the 95% interval of the mean."));
            Chart gc = gcPerConfiguration(measured);
            if (!gc.series().isEmpty()) {
                page.chart(gc);
            }
        }
        List<RunReportCharts.Labeled> runs = runs(dir, r, false);
        if (!runs.isEmpty()) {
            page.chart(RunReportCharts.throughputOverTime("throughput-runs", runs)
                    .note("Every run, second by second, warm-up shaded; a configuration's runs share its colour."));
            List<RunReportCharts.Labeled> first = runs(dir, r, true);
            if (RunReportCharts.hasGc(first)) {
                page.chart(RunReportCharts.gcPauses("gc-pauses", first)
                        .note("SUT stop-the-world pause time in each second of each configuration's first run (from its gc.log)."));
            }
        }
        page.paragraph("Files: " + dir.toAbsolutePath() + " (experiment.json, results.csv, report.md, a directory per run "
                + "with its own report.html; docs/experiments.md describes them).");
        return page;
    }

    private static void best(HtmlPage page, ExperimentResult r) {
        ExperimentResult.Best b = r.best();
        if (b == null) {
            return;
        }
        page.notice(b.label() != null ? "info" : "warn", (r.rateSearch() != null ? "Capacity: " : "Best configuration: ")
                + ExperimentTables.verdict(r).replace("`", ""));
        for (Configuration c : r.configurations()) {
            if (c.bimodal() != null) {
                page.notice("warn", "Two groups of runs: " + ExperimentTables.bimodal(c));
            }
        }
    }

    private static HtmlTable configurations(ExperimentResult r) {
        boolean steps = "steps".equals(r.kind());
        HtmlTable t = new HtmlTable("configuration", "status", "runs#", "throughput (req/s)#", "p99 (ms)#",
                "gain#", "significance", steps ? "step gain#" : "errors#", "GC overhead#", "GC pause (ms)#", "SUT CPU#");
        String bestLabel = r.best() == null ? null : r.best().label();
        for (Configuration c : r.configurations()) {
            var s = c.stats();
            String name = c.name() + (c.baseline() ? " (baseline)" : "") + (steps && c.added() != null && !c.added().isEmpty()
                    ? " + " + settings(c.added()) : "");
            String cls = c.label().equals(bestLabel) ? "good" : "failed".equals(c.status()) ? "bad" : null;
            t.styledRow(cls, name, c.status() + (c.bimodal() == null ? "" : ", two groups of runs")
                            + (c.failureReason() == null ? "" : ": " + c.failureReason()),
                    s == null ? "0" : Integer.toString(s.runs()),
                    s == null ? "—" : interval(s.throughput()), s == null ? "—" : interval(s.p99Ms()),
                    c.gain() == null ? "—" : ReportNumbers.signedPercent(c.gain().throughputPercent()),
                    significance(c.gain()),
                    steps ? (c.stepGain() == null ? "—" : ReportNumbers.signedPercent(c.stepGain().throughputPercent()))
                            : s == null ? "—" : Long.toString(s.errors()),
                    s == null || s.gcOverheadPercent() == null ? "—" : ReportNumbers.percent(s.gcOverheadPercent()),
                    s == null ? "—" : ReportNumbers.num(s.gcTotalPauseMs()),
                    s == null || s.sutCpuPercent() == null ? "—" : ReportNumbers.num(s.sutCpuPercent()) + "%");
        }
        return t;
    }

    private static String settings(Map<String, String> added) {
        StringBuilder out = new StringBuilder();
        added.forEach((k, v) -> out.append(out.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return out.toString();
    }

    static String interval(Interval i) {
        if (i == null) {
            return "—";
        }
        if (i.ciLow() == null || i.ciHigh() == null) {
            return ReportNumbers.num(i.mean());
        }
        return ReportNumbers.num(i.mean()) + " ± " + ReportNumbers.num((i.ciHigh() - i.ciLow()) / 2);
    }

    static String significance(Gain g) {
        if (g == null) {
            return "";
        }
        if (g.pValue() == null) {
            return "not judged (fewer than 2 runs or no spread)";
        }
        return String.format(Locale.ROOT, "p = %.3g, %s", g.pValue(), Boolean.TRUE.equals(g.significant()) ? "significant" : "within noise");
    }

    private static Chart perConfiguration(String id, String title, String unit, List<Configuration> configs,
                                          Function<Configuration, Interval> value, String color) {
        double[] mean = new double[configs.size()];
        double[] low = new double[configs.size()];
        double[] high = new double[configs.size()];
        for (int i = 0; i < configs.size(); i++) {
            Interval v = value.apply(configs.get(i));
            mean[i] = v == null ? Double.NaN : v.mean();
            low[i] = v == null || v.ciLow() == null ? Double.NaN : v.ciLow();
            high[i] = v == null || v.ciHigh() == null ? Double.NaN : v.ciHigh();
        }
        return new Chart(id, title).categories(names(configs)).y(unit, "linear")
                .add(Chart.Series.bars(title.replace(" per configuration", ""), null, mean).errors(low, high).color(color));
    }

    private static Chart gcPerConfiguration(List<Configuration> configs) {
        double[] overhead = new double[configs.size()];
        double[] pause = new double[configs.size()];
        boolean any = false;
        for (int i = 0; i < configs.size(); i++) {
            var s = configs.get(i).stats();
            overhead[i] = s.gcOverheadPercent() == null ? Double.NaN : s.gcOverheadPercent();
            pause[i] = s.gcTotalPauseMs() == null ? Double.NaN : s.gcTotalPauseMs();
            any |= s.gcOverheadPercent() != null;
        }
        Chart c = new Chart("gc-per-config", "GC overhead and total pause per configuration")
                .note("Mean over the runs: pause time as % of the measured window (left), and the window's total pause (right).")
                .categories(names(configs)).y("GC overhead (%)", "linear").y2("total pause (ms)", "linear");
        if (any) {
            c.add(Chart.Series.bars("GC overhead", null, overhead).color("#c23b4f"));
            c.add(Chart.Series.bars("total pause", null, pause).onSecondAxis().color("#8a8f99"));
        }
        return c;
    }

    /** Steps: throughput's gain over the baseline after each step (cumulative), and each step's own gain. */
    private static Chart cumulativeGain(List<Configuration> steps) {
        double[] cumulative = new double[steps.size()];
        double[] own = new double[steps.size()];
        for (int i = 0; i < steps.size(); i++) {
            Configuration c = steps.get(i);
            cumulative[i] = c.gain() == null ? 0 : c.gain().throughputPercent();
            own[i] = c.stepGain() == null ? (i == 0 ? 0 : Double.NaN) : c.stepGain().throughputPercent();
        }
        return new Chart("cumulative-gain", "Cumulative effect of tuning")
                .note("Throughput gain over the baseline after each step (bars: everything up to the step) and the step's own gain over the step before (line).")
                .categories(names(steps)).y("gain over the baseline (%)", "linear")
                .add(Chart.Series.bars("cumulative gain", null, cumulative).color("#2e9a5b"))
                .add(Chart.Series.line("this step's gain", null, own).withPoints().color("#1d2330"));
    }

    private static Chart rateSweep(ExperimentResult.RateSweep sweep) {
        List<ExperimentResult.RatePoint> pts = sweep.points().stream().filter(p -> p.throughput() != null && p.p99Ms() != null).toList();
        double[] rate = new double[pts.size()];
        double[] p99 = new double[pts.size()];
        double[] tput = new double[pts.size()];
        for (int i = 0; i < pts.size(); i++) {
            rate[i] = pts.get(i).rate();
            p99[i] = pts.get(i).p99Ms();
            tput[i] = pts.get(i).throughput();
        }
        StringBuilder note = new StringBuilder("p99 latency (left, log) and achieved throughput (right) at each target rate.");
        if (sweep.kneeRate() != null) {
            note.append(" Knee at ").append(ReportNumbers.num(sweep.kneeRate(), "req/s")).append('.');
        }
        if (sweep.maxRateMeetingGoal() != null) {
            note.append(" Highest rate meeting the goal (").append(sweep.goal()).append("): ")
                    .append(ReportNumbers.num(sweep.maxRateMeetingGoal(), "req/s")).append('.');
        }
        Chart c = new Chart("rate-sweep", "Latency versus throughput").note(note.toString())
                .x("target rate (req/s)", "linear").y("p99 (ms)", "log").y2("throughput (req/s)", "linear")
                .add(Chart.Series.line("p99", rate, p99).withPoints().color("#c23b4f"))
                .add(Chart.Series.line("achieved throughput", rate, tput).withPoints().onSecondAxis().color("#3c6fd1"));
        if (sweep.kneeRate() != null) {
            double w = rate.length > 1 ? (rate[rate.length - 1] - rate[0]) / 200 : 1;
            c.band(sweep.kneeRate() - w, sweep.kneeRate() + w, "knee");
        }
        return c;
    }

    /** A capacity search's trials: the judged latency of those that passed and of those that failed, by rate. */
    private static Chart rateSearch(ExperimentResult.RateSearch s) {
        List<ExperimentResult.SearchTrial> passed = s.trials().stream().filter(t -> t.passed() && t.latencyMs() != null).toList();
        List<ExperimentResult.SearchTrial> failed = s.trials().stream().filter(t -> !t.passed() && t.latencyMs() != null).toList();
        List<ExperimentResult.SearchTrial> carried = s.trials().stream().filter(t -> t.achieved() != null)
                .sorted(java.util.Comparator.comparingDouble(ExperimentResult.SearchTrial::rate)).toList();
        String unit = s.rateUnit();
        Chart c = new Chart("rate-search", "Capacity search").note("Each trial's " + s.latency()
                        + " (left, log) at its rate, green when the trial passed and red when it failed; the rate carried (right)."
                        + (s.capacity() == null ? "" : " Capacity " + ReportNumbers.num(s.capacity(), unit) + "."))
                .x("rate (" + unit + ")", "linear").y(s.latency() + " (ms)", "log").y2("carried (" + unit + ")", "linear")
                .add(Chart.Series.scatter("passed", rates(passed), latencies(passed)).color("#2f9e44"))
                .add(Chart.Series.scatter("failed", rates(failed), latencies(failed)).color("#c23b4f"))
                .add(Chart.Series.line("carried", rates(carried),
                        carried.stream().mapToDouble(ExperimentResult.SearchTrial::achieved).toArray())
                        .withPoints().onSecondAxis().color("#3c6fd1"));
        if (s.capacity() != null && s.firstFailedRate() != null) {
            c.band(s.capacity(), s.firstFailedRate(), "capacity .. first failure");
        }
        return c;
    }

    private static double[] rates(List<ExperimentResult.SearchTrial> trials) {
        return trials.stream().mapToDouble(ExperimentResult.SearchTrial::rate).toArray();
    }

    private static double[] latencies(List<ExperimentResult.SearchTrial> trials) {
        return trials.stream().mapToDouble(ExperimentResult.SearchTrial::latencyMs).toArray();
    }

    private static List<String> names(List<Configuration> configs) {
        List<String> out = new ArrayList<>();
        for (Configuration c : configs) {
            out.add(c.name());
        }
        return out;
    }

    /** The experiment's measured runs, coloured by configuration; {@code firstOnly}: one per configuration. */
    private static List<RunReportCharts.Labeled> runs(Path dir, ExperimentResult r, boolean firstOnly) throws IOException {
        List<RunReportCharts.Labeled> out = new ArrayList<>();
        Map<String, String> colors = new LinkedHashMap<>();
        for (Configuration c : r.configurations()) {
            colors.put(c.label(), RunReportCharts.RUN_COLORS[colors.size() % RunReportCharts.RUN_COLORS.length]);
            for (ExperimentResult.Run run : c.runs()) {
                if (run.directory() == null || !("ok".equals(run.status()) || "incomplete".equals(run.status()))) {
                    continue;
                }
                Path runDir = dir.resolve(run.directory());
                if (!Files.isRegularFile(runDir.resolve("timeseries.csv"))) {
                    continue;
                }
                out.add(new RunReportCharts.Labeled(c.name() + " #" + run.repetition(), ReportRun.load(runDir), colors.get(c.label())));
                if (firstOnly) {
                    break;
                }
            }
        }
        return out;
    }
}

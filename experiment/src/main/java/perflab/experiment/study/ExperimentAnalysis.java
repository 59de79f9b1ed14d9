package perflab.experiment.study;

import perflab.core.stats.Statistics;
import perflab.core.config.ExperimentSpec;
import perflab.core.result.ExperimentResult;
import perflab.core.result.ExperimentResult.Best;
import perflab.core.result.ExperimentResult.Configuration;
import perflab.core.result.ExperimentResult.Gain;
import perflab.core.result.ExperimentResult.Interval;
import perflab.core.result.ExperimentResult.RatePoint;
import perflab.core.result.ExperimentResult.Stats;
import perflab.core.result.LatencySummary;
import perflab.core.result.RunSummary;
import perflab.core.workload.CapacityMeasure;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Turns an experiment's runs into its result: per-configuration statistics, gains over the baseline (and for
 * steps over the previous step) with Welch's test, the best configuration by the objective's rule, and for a
 * rate sweep the curve, its knee and the highest rate that met the goal.
 */
public final class ExperimentAnalysis {
    /** A rate sweep's point kept up when its throughput reached this share of the target rate. */
    public static final double KEPT_UP = 0.95;

    /** One configuration's runs, in repetition order; {@code targetRate} is 0 for the closed model. */
    public record ConfigurationRuns(Variant variant, double targetRate, List<RunRecord> runs) {
    }

    /** What the result says about the experiment itself. */
    public record Header(String name, String description, String workload, String stack, String operation,
                         int repeat, String directory, String startedAt, String updatedAt, String status,
                         String repeatStop) {
        public Header(String name, String description, String workload, String stack, String operation,
                      int repeat, String directory, String startedAt, String updatedAt, String status) {
            this(name, description, workload, stack, operation, repeat, directory, startedAt, updatedAt, status, null);
        }
    }

    private ExperimentAnalysis() {
    }

    public static ExperimentResult analyze(ExperimentSpec spec, Header h, List<ConfigurationRuns> configs) {
        return analyze(spec, h, configs, CapacityMeasure.DRIVER);
    }

    /** @param capacity how a capacity search's trials are judged (the workload's); unused by other kinds */
    public static ExperimentResult analyze(ExperimentSpec spec, Header h, List<ConfigurationRuns> configs,
                                           CapacityMeasure capacity) {
        ExperimentSpec.Objective objective = spec.objective();
        List<Configuration> out = new ArrayList<>();
        List<ExperimentResult.Failure> failures = new ArrayList<>();
        int done = 0;
        int total = 0;
        for (int i = 0; i < configs.size(); i++) {
            ConfigurationRuns c = configs.get(i);
            double alpha = spec.decision().alpha();
            Gain gain = i == 0 ? null : gain(configs.get(0), c, alpha);
            Gain stepGain = spec.kind() == ExperimentSpec.Kind.STEPS && i > 0 ? gain(configs.get(i - 1), c, alpha) : null;
            out.add(configuration(c, i == 0, gain, stepGain, objective));
            for (RunRecord r : c.runs()) {
                total++;
                if (!RunRecord.PENDING.equals(r.status())) {
                    done++;
                }
                if (RunRecord.FAILED.equals(r.status())) {
                    failures.add(new ExperimentResult.Failure(c.variant().label(), r.repetition(), r.reason()));
                }
            }
        }
        String rule = rule(objective);
        ExperimentResult.RateSweep sweep = spec.kind() == ExperimentSpec.Kind.RATE_SWEEP ? rateSweep(configs, objective) : null;
        ExperimentResult.RateSearch search = spec.kind() == ExperimentSpec.Kind.RATE_SEARCH
                ? RateSearchAnalysis.result(spec, capacity, configs, h.status()) : null;
        return new ExperimentResult(h.name(), h.description(), spec.kind().key(), h.workload(), h.stack(), h.operation(),
                h.repeat(), h.directory(), h.startedAt(), h.updatedAt(), h.status(), done, total, dimensions(spec),
                new ExperimentResult.Objective(objective == null ? null : objective.percentile(),
                        objective == null ? null : objective.goalMs(), rule),
                out, search != null ? RateSearchAnalysis.best(search, out) : best(out, configs, objective, rule, spec.decision()),
                failures, sweep, h.repeatStop(), search);
    }

    static List<String> dimensions(ExperimentSpec spec) {
        Set<String> dims = new LinkedHashSet<>();
        switch (spec.kind()) {
            case MATRIX -> dims.addAll(spec.matrix().keySet());
            case STEPS -> spec.steps().forEach(s -> dims.addAll(s.settings().keySet()));
            case RATE_SWEEP, RATE_SEARCH -> dims.add("rate");
            default -> {
            }
        }
        return List.copyOf(dims);
    }

    private static Configuration configuration(ConfigurationRuns c, boolean baseline, Gain gain, Gain stepGain,
                                               ExperimentSpec.Objective objective) {
        List<ExperimentResult.Run> runs = new ArrayList<>();
        int ok = 0;
        int failed = 0;
        int incomplete = 0;
        String reason = null;
        for (RunRecord r : c.runs()) {
            runs.add(run(r));
            switch (r.status()) {
                case RunRecord.OK -> ok++;
                case RunRecord.FAILED -> failed++;
                case RunRecord.INCOMPLETE -> incomplete++;
                default -> {
                }
            }
            if (reason == null && !r.ok() && r.reason() != null) {
                reason = r.reason();
            }
        }
        String status = ok == c.runs().size() ? "ok" : ok > 0 || incomplete > 0 ? "partial"
                : failed > 0 ? "failed" : "pending";
        Stats stats = stats(c.runs());
        boolean meets = stats != null && stats.errors() == 0 && stats.throughput().mean() > 0
                && (objective == null || percentileMean(c.runs(), objective.percentile()) <= objective.goalMs());
        return new Configuration(c.variant().index(), c.variant().label(), c.variant().name(), c.variant().varied(),
                c.variant().added(), baseline, status, "ok".equals(status) ? null : reason, runs, stats, gain,
                stepGain, meets, bimodality(c.runs()));
    }

    /** Two runs this far apart (share of their mean) are two behaviours, not noise; three or more: {@link Statistics#twoGroups}. */
    static final double TWO_RUNS_APART = 0.25;

    /**
     * Whether a configuration's complete runs fell into two groups far apart, and what else the groups differed
     * in; null when they did not.
     */
    static ExperimentResult.Bimodality bimodality(List<RunRecord> runs) {
        List<RunRecord> ok = new ArrayList<>(okRuns(runs));
        if (ok.size() < 2) {
            return null;
        }
        ok.sort(java.util.Comparator.comparingDouble(r -> r.summary().throughput()));
        double[] t = ok.stream().mapToDouble(r -> r.summary().throughput()).toArray();
        int split = t.length == 2 ? (t[1] - t[0] >= TWO_RUNS_APART * Statistics.mean(t) ? 1 : -1) : Statistics.twoGroups(t);
        if (split < 0) {
            return null;
        }
        List<RunSummary> low = ok.subList(0, split).stream().map(RunRecord::summary).toList();
        List<RunSummary> high = ok.subList(split, ok.size()).stream().map(RunRecord::summary).toList();
        List<String> differed = new ArrayList<>();
        differ(differed, "SUT JIT compiler %s%% vs %s%% of a core", low, high, s -> s.sut() == null ? null : s.sut().jitCpuPercent());
        differ(differed, "GC overhead %s%% vs %s%%", low, high, s -> s.gc() == null ? null : s.gc().overheadPercent());
        differ(differed, "SUT CPU %s vs %s µs/request", low, high, s -> s.sut() == null ? null : s.sut().cpuMicrosPerRequest());
        return new ExperimentResult.Bimodality(ok.subList(0, split).stream().map(RunRecord::repetition).toList(),
                ok.subList(split, ok.size()).stream().map(RunRecord::repetition).toList(),
                round(Statistics.mean(values(low, RunSummary::throughput))),
                round(Statistics.mean(values(high, RunSummary::throughput))),
                differed.isEmpty() ? "nothing else measured" : String.join(", ", differed));
    }

    private static void differ(List<String> out, String format, List<RunSummary> low, List<RunSummary> high,
                               java.util.function.Function<RunSummary, Double> f) {
        Double a = meanOf(low, f);
        Double b = meanOf(high, f);
        if (a != null && b != null) {
            out.add(String.format(Locale.ROOT, format, String.format(Locale.ROOT, "%.1f", a), String.format(Locale.ROOT, "%.1f", b)));
        }
    }

    private static ExperimentResult.Run run(RunRecord r) {
        RunSummary s = r.summary();
        if (s == null) {
            return new ExperimentResult.Run(r.repetition(), r.directory(), r.status(), r.reason(), null, null, null,
                    null, null, null, null, r.collector(), r.transparentHugePages(), null);
        }
        return new ExperimentResult.Run(r.repetition(), r.directory(), r.status(), r.reason(), s.throughput(),
                s.latencyMs().p99(), s.latencyMs().mean(), errors(s),
                s.gc() == null ? null : s.gc().overheadPercent(), s.gc() == null ? null : s.gc().totalPauseMs(),
                s.sut() == null ? null : s.sut().cpuPercent(), r.collector(), r.transparentHugePages(), s.targetRate());
    }

    /** Statistics over the complete runs; errors over every run that measured. Null when no run completed. */
    static Stats stats(List<RunRecord> runs) {
        List<RunSummary> ok = okSummaries(runs);
        if (ok.isEmpty()) {
            return null;
        }
        long errors = 0;
        for (RunRecord r : runs) {
            if (r.summary() != null) {
                errors += errors(r.summary());
            }
        }
        return new Stats(ok.size(), Statistics.interval(values(ok, s -> s.throughput())),
                Statistics.interval(values(ok, s -> s.latencyMs().p99())),
                meanOf(ok, s -> s.latencyMs().mean()),
                meanOf(ok, s -> s.gc() == null ? null : s.gc().overheadPercent()),
                meanOf(ok, s -> s.gc() == null ? null : s.gc().totalPauseMs()),
                meanOf(ok, s -> s.sut() == null ? null : s.sut().cpuPercent()), errors);
    }

    static Gain gain(ConfigurationRuns base, ConfigurationRuns c, double alpha) {
        List<RunSummary> b = okSummaries(base.runs());
        List<RunSummary> x = okSummaries(c.runs());
        if (b.isEmpty() || x.isEmpty()) {
            return null;
        }
        double[] bt = values(b, RunSummary::throughput);
        double[] xt = values(x, RunSummary::throughput);
        double[] bp = values(b, s -> s.latencyMs().p99());
        double[] xp = values(x, s -> s.latencyMs().p99());
        Statistics.Welch wt = Statistics.welch(xt, bt);
        Statistics.Welch wp = Statistics.welch(xp, bp);
        return new Gain(base.variant().label(), percent(Statistics.mean(xt), Statistics.mean(bt)),
                wt == null ? null : round(wt.t()), wt == null ? null : round(wt.df()),
                wt == null ? null : roundP(wt.p()), wt == null ? null : wt.p() < alpha,
                percent(Statistics.mean(xp), Statistics.mean(bp)), wp == null ? null : roundP(wp.p()),
                wp == null ? null : wp.p() < alpha);
    }

    static String rule(ExperimentSpec.Objective objective) {
        return "highest mean throughput among the configurations that measured with zero errors"
                + (objective == null ? "" : String.format(Locale.ROOT, " and mean %s <= %s ms", objective.percentile(),
                trim(objective.goalMs())));
    }

    /**
     * The best configuration by the rule, named only with evidence ({@link ExperimentSpec.Decision}): the leader
     * among the configurations that qualified must beat the baseline (or the runner-up, when the leader is the
     * baseline or the baseline did not qualify) beyond noise and by the minimum effect. A single qualified
     * configuration is best by the rule alone (nothing to compare).
     */
    static Best best(List<Configuration> configs, List<ConfigurationRuns> runs, ExperimentSpec.Objective objective,
                     String rule, ExperimentSpec.Decision decision) {
        List<Configuration> qualified = new ArrayList<>();
        for (Configuration c : configs) {
            if (c.meetsObjective()) {
                qualified.add(c);
            }
        }
        if (qualified.isEmpty()) {
            boolean any = configs.stream().anyMatch(c -> c.stats() != null);
            return new Best(null, null, null, rule, 0, any
                    ? "no configuration had zero errors" + (objective == null ? "" : " and met the latency goal")
                    : "no configuration has measured yet");
        }
        qualified.sort((a, b) -> Double.compare(b.stats().throughput().mean(), a.stats().throughput().mean()));
        Configuration leader = qualified.get(0);
        Configuration baseline = configs.get(0);
        Configuration other = leader != baseline && baseline.meetsObjective() ? baseline
                : qualified.size() > 1 ? qualified.get(1) : null;
        if (other == null) {
            return new Best(leader.label(), leader.name(), leader.stats().throughput().mean(), rule, 1, null);
        }
        double[] l = values(okSummaries(runsOf(runs, leader).runs()), RunSummary::throughput);
        double[] o = values(okSummaries(runsOf(runs, other).runs()), RunSummary::throughput);
        double gain = round(percent(Statistics.mean(l), Statistics.mean(o)));
        Statistics.Welch w = Statistics.welch(l, o);
        ExperimentResult.Evidence evidence = new ExperimentResult.Evidence(leader.label(), other.label(), gain,
                w == null ? null : roundP(w.p()), decision.alpha(), decision.minEffectPercent());
        String against = other == baseline ? "the baseline " + other.name() : "the runner-up " + other.name();
        if (w == null) {
            return new Best(null, null, null, rule, qualified.size(), String.format(Locale.ROOT,
                    "too few runs to tell: %s leads %s by %+.1f%%, but a test needs at least 2 complete runs of each "
                            + "with some spread; give --repeat 3 or more", leader.name(), against, gain), evidence);
        }
        if (w.p() >= decision.alpha() || gain < decision.minEffectPercent()) {
            return new Best(null, null, null, rule, qualified.size(), String.format(Locale.ROOT,
                    "no configuration beat %s beyond noise: the leader %s is %+.1f%% with p %.3g (needs p < %s and a "
                            + "gain of at least %s%%)", against, leader.name(), gain, w.p(), trim(decision.alpha()),
                    trim(decision.minEffectPercent())), evidence);
        }
        return new Best(leader.label(), leader.name(), leader.stats().throughput().mean(), rule, qualified.size(), null,
                evidence);
    }

    private static ConfigurationRuns runsOf(List<ConfigurationRuns> runs, Configuration c) {
        return runs.stream().filter(r -> r.variant().label().equals(c.label())).findFirst().orElseThrow();
    }

    static ExperimentResult.RateSweep rateSweep(List<ConfigurationRuns> configs, ExperimentSpec.Objective objective) {
        List<RatePoint> points = new ArrayList<>();
        for (ConfigurationRuns c : configs) {
            Stats s = stats(c.runs());
            if (s == null) {
                points.add(new RatePoint(c.variant().label(), c.targetRate(), null, null, 0, false, false));
                continue;
            }
            boolean keptUp = s.throughput().mean() >= KEPT_UP * c.targetRate();
            boolean meets = keptUp && s.errors() == 0
                    && (objective == null || percentileMean(c.runs(), objective.percentile()) <= objective.goalMs());
            points.add(new RatePoint(c.variant().label(), c.targetRate(), s.throughput().mean(), s.p99Ms().mean(),
                    s.errors(), keptUp, meets));
        }
        Double max = null;
        Double atMax = null;
        for (RatePoint p : points) {
            if (p.meetsGoal() && (max == null || p.rate() > max)) {
                max = p.rate();
                atMax = p.throughput();
            }
        }
        String goal = "zero errors, throughput >= 95 % of the target rate"
                + (objective == null ? "" : String.format(Locale.ROOT, ", mean %s <= %s ms", objective.percentile(),
                trim(objective.goalMs())));
        return new ExperimentResult.RateSweep(points, knee(points), max, atMax, goal);
    }

    /**
     * The knee of the latency-versus-rate curve (Kneedle): both axes normalised to 0..1, the point farthest
     * below the straight line from the first to the last point. Null with fewer than three measured points or
     * a flat curve.
     */
    static Double knee(List<RatePoint> points) {
        List<RatePoint> measured = points.stream().filter(p -> p.p99Ms() != null)
                .sorted((a, b) -> Double.compare(a.rate(), b.rate())).toList();
        if (measured.size() < 3) {
            return null;
        }
        double r0 = measured.get(0).rate();
        double r1 = measured.get(measured.size() - 1).rate();
        double lo = measured.stream().mapToDouble(RatePoint::p99Ms).min().orElseThrow();
        double hi = measured.stream().mapToDouble(RatePoint::p99Ms).max().orElseThrow();
        if (r1 <= r0 || hi <= lo) {
            return null;
        }
        Double knee = null;
        double bestDistance = 0;
        for (RatePoint p : measured) {
            double x = (p.rate() - r0) / (r1 - r0);
            double y = (p.p99Ms() - lo) / (hi - lo);
            if (x - y > bestDistance) {
                bestDistance = x - y;
                knee = p.rate();
            }
        }
        return knee;
    }

    private static double percentileMean(List<RunRecord> runs, String percentile) {
        return Statistics.mean(values(okSummaries(runs), s -> percentile(s.latencyMs(), percentile)));
    }

    static double percentile(LatencySummary l, String name) {
        return switch (name) {
            case "p50" -> l.p50();
            case "p90" -> l.p90();
            case "p95" -> l.p95();
            case "p99" -> l.p99();
            case "p999" -> l.p999();
            case "mean" -> l.mean();
            default -> throw new IllegalArgumentException("unknown percentile " + name);
        };
    }

    /** The complete runs: the unit of every statistic. */
    private static List<RunRecord> okRuns(List<RunRecord> runs) {
        return runs.stream().filter(r -> r.ok() && r.summary() != null).toList();
    }

    private static List<RunSummary> okSummaries(List<RunRecord> runs) {
        return okRuns(runs).stream().map(RunRecord::summary).toList();
    }

    private static long errors(RunSummary s) {
        return CapacityMeasure.driverErrors(s);
    }

    private static double[] values(List<RunSummary> runs, java.util.function.ToDoubleFunction<RunSummary> f) {
        return runs.stream().mapToDouble(f).toArray();
    }

    private static Double meanOf(List<RunSummary> runs, java.util.function.Function<RunSummary, Double> f) {
        double[] xs = runs.stream().map(f).filter(v -> v != null).mapToDouble(Double::doubleValue).toArray();
        return xs.length == 0 ? null : round(Statistics.mean(xs));
    }

    private static double percent(double x, double base) {
        return base == 0 ? 0 : round((x / base - 1) * 100);
    }

    private static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }

    private static double roundP(double p) {
        return p == 0 ? 0 : Double.parseDouble(String.format(Locale.ROOT, "%.4g", p));
    }

    static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}

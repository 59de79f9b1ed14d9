package perflab.core.result;

import java.util.List;
import java.util.Map;

/**
 * experiment.json: an experiment's configurations, their runs, the statistics of each configuration, the
 * gains over the baseline with their significance, the best configuration and the rule that chose it, the
 * failures, and for a rate sweep its curve. Rewritten after every run; documented key by key in
 * docs/experiments.md. Figures absent (null) when not measured.
 *
 * @param kind       "single", "matrix", "steps", "rate-sweep" or "rate-search"
 * @param status     "running", "complete" (every run done), "interrupted"
 * @param dimensions the settings that vary between configurations, in table order
 * @param repeat     repetitions per configuration (an adaptive experiment: the rounds made so far)
 * @param repeatStop an adaptive experiment ({@code --repeat auto:MAX}): why it stopped repeating; else null
 * @param rateSearch a capacity search: its trials and the capacity found; else null
 */
public record ExperimentResult(String name, String description, String kind, String workload, String stack,
                               String operation, int repeat, String directory, String startedAt, String updatedAt,
                               String status, int runsDone, int runsTotal, List<String> dimensions,
                               Objective objective, List<Configuration> configurations, Best best,
                               List<Failure> failures, RateSweep rateSweep, String repeatStop, RateSearch rateSearch) {
    /** A result that is not a capacity search. */
    public ExperimentResult(String name, String description, String kind, String workload, String stack,
                            String operation, int repeat, String directory, String startedAt, String updatedAt,
                            String status, int runsDone, int runsTotal, List<String> dimensions,
                            Objective objective, List<Configuration> configurations, Best best,
                            List<Failure> failures, RateSweep rateSweep, String repeatStop) {
        this(name, description, kind, workload, stack, operation, repeat, directory, startedAt, updatedAt, status,
                runsDone, runsTotal, dimensions, objective, configurations, best, failures, rateSweep, repeatStop, null);
    }

    /** A result without adaptive repetition. */
    public ExperimentResult(String name, String description, String kind, String workload, String stack,
                            String operation, int repeat, String directory, String startedAt, String updatedAt,
                            String status, int runsDone, int runsTotal, List<String> dimensions,
                            Objective objective, List<Configuration> configurations, Best best,
                            List<Failure> failures, RateSweep rateSweep) {
        this(name, description, kind, workload, stack, operation, repeat, directory, startedAt, updatedAt, status,
                runsDone, runsTotal, dimensions, objective, configurations, best, failures, rateSweep, null);
    }


    /**
     * @param latencyPercentile "p99" ... (null: no latency goal)
     * @param rule              the rule that names the best configuration, in words
     */
    public record Objective(String latencyPercentile, Double latencyGoalMs, String rule) {
    }

    /**
     * One configuration.
     *
     * @param label       its directory under the experiment's (unique, file-system safe)
     * @param name        what it is in words, e.g. "gc=g1 heap=1g" or the step's name
     * @param settings    the settings that make it what it is (for steps: everything added up to this step)
     * @param added       steps: the settings this step added; else null
     * @param status      "ok" (every run measured, complete), "partial" (some runs failed or incomplete),
     *                    "failed" (no measured run), "pending" (nothing run yet)
     * @param gain        over the baseline (the first configuration or step); null for the baseline
     * @param stepGain    steps: over the previous step
     * @param meetsObjective zero errors, at least one complete run and (if a goal is set) the latency goal met
     * @param bimodal     its runs fell into two groups far apart; null when they did not
     */
    public record Configuration(int index, String label, String name, Map<String, String> settings,
                                Map<String, String> added, boolean baseline, String status, String failureReason,
                                List<Run> runs, Stats stats, Gain gain, Gain stepGain, boolean meetsObjective,
                                Bimodality bimodal) {
        /** A configuration whose runs agree (or were read from a result written before bimodality was checked). */
        public Configuration(int index, String label, String name, Map<String, String> settings,
                             Map<String, String> added, boolean baseline, String status, String failureReason,
                             List<Run> runs, Stats stats, Gain gain, Gain stepGain, boolean meetsObjective) {
            this(index, label, name, settings, added, baseline, status, failureReason, runs, stats, gain, stepGain,
                    meetsObjective, null);
        }
    }

    /**
     * A configuration's runs in two groups whose throughputs lie far apart (the same settings, two behaviours: a
     * JIT that compiled differently, a collector that settled differently), so that its interval is not noise but
     * two systems. Said instead of widening the interval silently.
     *
     * @param lowRuns    the repetitions of the slower group
     * @param highRuns   the repetitions of the faster group
     * @param differedIn what else the two groups' runs differed in (JIT compiler time in the window, GC overhead,
     *                   SUT CPU per request), the slower group's mean first
     */
    public record Bimodality(List<Integer> lowRuns, List<Integer> highRuns, double lowMean, double highMean,
                             String differedIn) {
    }

    /**
     * One run of a configuration.
     *
     * @param directory  relative to the experiment's directory
     * @param status     "ok", "incomplete" (measured but interrupted or cut short), "failed", "pending"
     * @param collector  the collector the SUT's JVM really used (run.json effectiveJvm)
     * @param transparentHugePages whether the SUT's JVM really used transparent huge pages
     */
    public record Run(int repetition, String directory, String status, String reason, Double throughput,
                      Double p99Ms, Double meanMs, Long errors, Double gcOverheadPercent, Double gcTotalPauseMs,
                      Double sutCpuPercent, String collector, Boolean transparentHugePages, Double targetRate) {
    }

    /** Mean of the per-run values, sample standard deviation, and the 95 % interval of the mean (Student t). */
    public record Interval(int n, double mean, Double sd, Double ciLow, Double ciHigh) {
    }

    /**
     * A configuration's statistics over its complete runs (incomplete and failed runs excluded).
     *
     * @param errors errors over all its measured runs
     */
    public record Stats(int runs, Interval throughput, Interval p99Ms, Double meanMs, Double gcOverheadPercent,
                        Double gcTotalPauseMs, Double sutCpuPercent, long errors) {
    }

    /**
     * A change against another configuration, with Welch's t-test on the per-run values (two-sided, alpha 0.05).
     *
     * @param over              the label of the configuration compared with
     * @param throughputPercent (mean / other mean - 1) x 100
     * @param pValue            Welch's p for throughput; null when either side has fewer than 2 runs or no spread
     * @param significant       p < 0.05; null when there is no p
     */
    public record Gain(String over, double throughputPercent, Double t, Double df, Double pValue,
                       Boolean significant, Double p99Percent, Double p99PValue, Boolean p99Significant) {
    }

    /**
     * The best configuration, or (label null) why there is none; {@code qualified} configurations met the rule.
     *
     * @param evidence the comparison that decided it (also when it decided that there is no best); null when there
     *                 was nothing to compare (a single configuration qualified)
     */
    public record Best(String label, String name, Double throughput, String rule, int qualified, String reason,
                       Evidence evidence) {
        /** Best without a comparison (read from results written before evidence was recorded). */
        public Best(String label, String name, Double throughput, String rule, int qualified, String reason) {
            this(label, name, throughput, rule, qualified, reason, null);
        }
    }

    /**
     * The leading configuration against the one it had to beat.
     *
     * @param leader           the label of the configuration with the highest mean throughput among those qualified
     * @param comparedWith     the baseline's label, or the runner-up's when the leader is the baseline or the
     *                         baseline did not qualify
     * @param gainPercent      (leader's mean / the other's - 1) x 100
     * @param pValue           Welch's two-sided p on the per-run throughputs; null when either has fewer than two
     *                         runs or no spread
     * @param alpha            the p it had to be below
     * @param minEffectPercent the gain it had to reach
     */
    public record Evidence(String leader, String comparedWith, double gainPercent, Double pValue, double alpha,
                           double minEffectPercent) {
    }

    public record Failure(String label, int repetition, String reason) {
    }

    /**
     * A rate sweep's latency-versus-throughput curve.
     *
     * @param kneeRate           the target rate at the curve's knee (Kneedle on rate vs p99); null: no knee
     * @param maxRateMeetingGoal the highest target rate that met the goal (zero errors, kept up, latency goal)
     */
    public record RateSweep(List<RatePoint> points, Double kneeRate, Double maxRateMeetingGoal,
                            Double throughputAtMaxRate, String goal) {
    }

    /**
     * @param keptUp throughput at least 95 % of the target rate
     */
    public record RatePoint(String label, double rate, Double throughput, Double p99Ms, long errors, boolean keptUp,
                            boolean meetsGoal) {
    }

    /**
     * A capacity search: every trial in the order run, and what they found.
     *
     * @param rateUnit          what a rate counts, e.g. "requests/s", "users/s"
     * @param latency           the latency judged, in words, e.g. "p95 NOTIFY-to-200"
     * @param goalMs            its goal; null: none
     * @param goal              what a trial must do to pass, in words
     * @param capacity          the highest rate that passed below every rate that failed; null: none passed
     * @param firstFailedRate   the lowest rate that failed; null: none failed
     * @param confirmed         the capacity passed twice
     * @param stopReason        why the search ended; null while it runs
     * @param capacityRun       the directory of the capacity's last trial, relative to the experiment's
     * @param figuresAtCapacity that trial's workload figures (summary.json {@code figures}); empty when it has none
     */
    public record RateSearch(String rateUnit, String latency, Double goalMs, String goal, List<SearchTrial> trials,
                             Double capacity, Double firstFailedRate, boolean confirmed, String stopReason,
                             String capacityRun, Double throughputAtCapacity, Double sutCpuPercentAtCapacity,
                             Map<String, Object> figuresAtCapacity) {
    }

    /**
     * One trial of a capacity search.
     *
     * @param achieved  the rate carried in the window, in the search's unit; null: not measured
     * @param latencyMs the judged latency; null: not measured
     * @param failures  what failed (errors, failed calls)
     * @param why       why it failed, or "passed"
     */
    public record SearchTrial(int trial, String label, double rate, Double achieved, Double latencyMs, long failures,
                              boolean passed, String why) {
    }
}

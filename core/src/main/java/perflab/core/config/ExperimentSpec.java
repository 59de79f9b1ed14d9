package perflab.core.config;

import java.util.List;
import java.util.Map;

/**
 * An experiment as the user wrote it (an experiment file, or `perflab tune` flags), as plain data: setting
 * names are the CLI's run flags without the dashes ("heap", "server-threads"), values as typed. Parsed and
 * validated at the edge (the CLI); docs/experiments.md documents the format.
 *
 * @param name        names the experiment's directory ({@code results/<stamp>-tune-<name>})
 * @param workload    the workload every run drives
 * @param settings    settings shared by every configuration (stack, operation, clients, duration, ...)
 * @param repeat      runs per configuration (at least 1); for an adaptive experiment ({@link Decision#adaptive}),
 *                    the most rounds
 * @param matrix      every combination of these settings' values (first setting outermost); empty: none
 * @param steps       cumulative steps, each adding settings to the one before; empty: none
 * @param rateSweep   the open model at increasing rates for one configuration; null: none
 * @param objective   the latency goal the best configuration must meet; null: none
 * @param decision    how sure a best configuration must be; null: {@link Decision#DEFAULT}
 * @param rateSearch  a capacity search: the next rate chosen from the last trial's outcome; null: none
 */
public record ExperimentSpec(String name, String description, String workload, Map<String, String> settings,
                             int repeat, Map<String, List<String>> matrix, List<Step> steps, RateSweep rateSweep,
                             Objective objective, Decision decision, RateSearch rateSearch) {
    public ExperimentSpec {
        decision = decision == null ? Decision.DEFAULT : decision;
        settings = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(settings));
        matrix = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(matrix));
        steps = List.copyOf(steps);
    }

    /** An experiment that is not a capacity search. */
    public ExperimentSpec(String name, String description, String workload, Map<String, String> settings,
                          int repeat, Map<String, List<String>> matrix, List<Step> steps, RateSweep rateSweep,
                          Objective objective, Decision decision) {
        this(name, description, workload, settings, repeat, matrix, steps, rateSweep, objective, decision, null);
    }

    /** An experiment with the default {@link Decision}. */
    public ExperimentSpec(String name, String description, String workload, Map<String, String> settings,
                          int repeat, Map<String, List<String>> matrix, List<Step> steps, RateSweep rateSweep,
                          Objective objective) {
        this(name, description, workload, settings, repeat, matrix, steps, rateSweep, objective, null);
    }

    /**
     * When the leading configuration is named best: its throughput beats the one it is compared with (the
     * baseline, or the runner-up when the leader is the baseline or the baseline did not qualify) with Welch's
     * two-sided p below {@code alpha} and a gain of at least {@code minEffectPercent}. A gain that is real but
     * smaller than the minimum effect is not worth a configuration change.
     *
     * @param adaptive         repeat in interleaved rounds until the answer is clear ({@code repeat: auto:MAX}):
     *                         the leaders' 95 % intervals separate, or every interval is within
     *                         ± {@code precisionPercent} of its mean, or MAX rounds
     * @param precisionPercent see {@code adaptive}
     */
    public record Decision(double alpha, double minEffectPercent, boolean adaptive, double precisionPercent) {
        public static final Decision DEFAULT = new Decision(0.05, 2);
        /** An adaptive experiment also stops once every interval is this narrow (± % of its mean). */
        public static final double DEFAULT_PRECISION_PERCENT = 3;

        /** A fixed number of repetitions. */
        public Decision(double alpha, double minEffectPercent) {
            this(alpha, minEffectPercent, false, DEFAULT_PRECISION_PERCENT);
        }

        /** The same, with the repetitions adaptive ({@code repeat: auto:MAX}) or not. */
        public Decision adaptive(boolean on) {
            return new Decision(alpha, minEffectPercent, on, precisionPercent);
        }

        public Decision {
            if (!(precisionPercent > 0 && precisionPercent < 100)) {
                throw new IllegalArgumentException("the precision must be 0-100 % of the mean, got " + precisionPercent);
            }
            if (!(alpha > 0 && alpha < 0.5)) {
                throw new IllegalArgumentException("alpha must be within (0, 0.5), got " + alpha);
            }
            if (!(minEffectPercent >= 0 && minEffectPercent < 100)) {
                throw new IllegalArgumentException("the minimum effect must be 0-100 %, got " + minEffectPercent);
            }
        }
    }

    /** What kind of experiment this is. */
    public enum Kind {
        /** one configuration, repeated */
        SINGLE("single"),
        MATRIX("matrix"),
        STEPS("steps"),
        RATE_SWEEP("rate-sweep"),
        RATE_SEARCH("rate-search");

        private final String key;

        Kind(String key) {
            this.key = key;
        }

        /** The name used in experiment.json and the file format. */
        public String key() {
            return key;
        }
    }

    public Kind kind() {
        if (rateSearch != null) {
            return Kind.RATE_SEARCH;
        }
        if (rateSweep != null) {
            return Kind.RATE_SWEEP;
        }
        if (!steps.isEmpty()) {
            return Kind.STEPS;
        }
        return matrix.isEmpty() ? Kind.SINGLE : Kind.MATRIX;
    }

    /** One cumulative step: its name and the settings it adds (or changes; JVM flags accumulate). */
    public record Step(String name, Map<String, String> settings) {
        public Step {
            settings = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(settings));
        }
    }

    /** The open-model rates to run, in requests/s, as typed ("500", "2.5k"); increasing. */
    public record RateSweep(List<String> rates) {
        public RateSweep {
            rates = List.copyOf(rates);
        }
    }

    /**
     * A capacity search in the manner of RFC 7502's session-rate benchmark: one trial at {@code start}, the rate
     * doubled after every trial that passed until one fails (or {@code max} passes), then halving the interval
     * between the highest rate that passed and the lowest that failed until it is within {@code resolutionPercent}
     * of the lower; with {@code confirm}, the capacity found is run once more and must pass again. A trial passes
     * with zero failures, the rate carried (at least 95 % of the rate asked) and the latency goal met.
     *
     * @param start             the first rate, as typed ("50", "2.5k")
     * @param max               the highest rate tried, as typed; null: no limit but {@code maxTrials}
     * @param resolutionPercent the search ends when the interval is this narrow (% of the rate that passed)
     * @param goalMs            the latency goal on the workload's capacity latency; null: the workload's default
     * @param confirm           run the capacity found a second time
     * @param maxTrials         the most trials, confirmation included
     */
    public record RateSearch(String start, String max, double resolutionPercent, Double goalMs, boolean confirm,
                             int maxTrials) {
        public static final double DEFAULT_RESOLUTION_PERCENT = 5;
        public static final int DEFAULT_MAX_TRIALS = 16;

        public RateSearch {
            if (!(resolutionPercent >= 0.1 && resolutionPercent <= 50)) {
                throw new IllegalArgumentException("the search's resolution must be 0.1-50 % of the rate, got " + resolutionPercent);
            }
            if (maxTrials < 2 || maxTrials > 100) {
                throw new IllegalArgumentException("a search needs 2-100 trials, got " + maxTrials);
            }
            if (goalMs != null && !(goalMs > 0)) {
                throw new IllegalArgumentException("the search's latency goal must be above 0 ms, got " + goalMs);
            }
        }
    }

    /**
     * The best configuration's goal: a latency percentile at or below {@code goalMs}.
     *
     * @param percentile "p50", "p90", "p95", "p99" or "p999"
     */
    public record Objective(String percentile, double goalMs) {
    }
}

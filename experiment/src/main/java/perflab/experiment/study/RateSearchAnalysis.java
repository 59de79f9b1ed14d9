package perflab.experiment.study;

import perflab.core.config.ExperimentSpec;
import perflab.core.result.ExperimentResult;
import perflab.core.result.ExperimentResult.SearchTrial;
import perflab.core.result.RunSummary;
import perflab.core.workload.CapacityMeasure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A capacity search's trials judged by the workload's {@link CapacityMeasure}, and what the search found: the
 * capacity, the first rate that failed, and the figures at the capacity.
 */
public final class RateSearchAnalysis {
    private RateSearchAnalysis() {
    }

    /** The latency goal: the search's own, else the workload's default; null: no latency goal. */
    static Double goalMs(ExperimentSpec spec, CapacityMeasure m) {
        return spec.rateSearch().goalMs() != null ? spec.rateSearch().goalMs() : m.defaultGoalMs();
    }

    /** What a trial must do to pass, in words. */
    public static String goal(ExperimentSpec spec, CapacityMeasure m) {
        Double goal = goalMs(spec, m);
        ExperimentSpec.Objective o = spec.objective();
        return "zero failures, at least " + Math.round(ExperimentAnalysis.KEPT_UP * 100) + " % of the rate carried ("
                + m.rateUnit() + ")" + (goal == null ? "" : ", " + m.latencyName() + " <= " + ExperimentAnalysis.trim(goal) + " ms")
                + (o == null ? "" : ", driver " + o.percentile() + " <= " + ExperimentAnalysis.trim(o.goalMs()) + " ms");
    }

    /** One finished trial, judged; a pending one (not run, or interrupted) is not a trial yet: null. */
    static SearchTrial judge(int trial, String label, double rate, RunRecord r, ExperimentSpec spec, CapacityMeasure m) {
        if (RunRecord.PENDING.equals(r.status()) || RunRecord.INCOMPLETE.equals(r.status())) {
            return null;
        }
        RunSummary s = r.summary();
        if (s == null) {
            return new SearchTrial(trial, label, rate, null, null, 0, false, "the run failed: " + r.reason());
        }
        Double achieved = m.achieved().apply(s);
        Double latency = m.latencyMs().apply(s);
        long failures = m.failures().applyAsLong(s);
        List<String> why = new ArrayList<>();
        if (!r.ok()) {
            why.add("the run failed: " + r.reason());
        }
        if (failures > 0) {
            why.add(failures + " failed");
        }
        if (achieved == null || achieved < ExperimentAnalysis.KEPT_UP * rate) {
            why.add("carried " + (achieved == null ? "?" : fmt(achieved)) + " of " + CapacitySearch.fmt(rate) + " " + m.rateUnit());
        }
        Double goal = goalMs(spec, m);
        if (goal != null && (latency == null || latency > goal)) {
            why.add(m.latencyName() + " " + (latency == null ? "not measured" : fmt(latency) + " ms > " + ExperimentAnalysis.trim(goal) + " ms"));
        }
        ExperimentSpec.Objective o = spec.objective();
        if (o != null && s.latencyMs() != null) {
            double p = ExperimentAnalysis.percentile(s.latencyMs(), o.percentile());
            if (p > o.goalMs()) {
                why.add("driver " + o.percentile() + " " + fmt(p) + " ms > " + ExperimentAnalysis.trim(o.goalMs()) + " ms");
            }
        }
        return new SearchTrial(trial, label, rate, round(achieved), round(latency), failures, why.isEmpty(),
                why.isEmpty() ? "passed" : String.join("; ", why));
    }

    /** The trials that ended, in the order run, with the search's rates and verdicts. */
    static List<CapacitySearch.Trial> rates(List<SearchTrial> trials) {
        return trials.stream().map(t -> new CapacitySearch.Trial(t.rate(), t.passed())).toList();
    }

    static ExperimentResult.RateSearch result(ExperimentSpec spec, CapacityMeasure m,
                                              List<ExperimentAnalysis.ConfigurationRuns> configs, String status) {
        List<SearchTrial> trials = trials(spec, m, configs);
        CapacitySearch.Outcome o = CapacitySearch.of(spec.rateSearch()).outcome(rates(trials));
        String capacityRun = null;
        RunSummary atCapacity = null;
        if (o.capacity() != null) {
            for (int i = 0; i < trials.size(); i++) {
                SearchTrial t = trials.get(i);
                if (t.rate() == o.capacity() && t.passed()) {
                    RunRecord r = configs.get(i).runs().get(0);
                    capacityRun = r.directory();
                    atCapacity = r.summary();
                }
            }
        }
        String stop = "running".equals(status) ? null : o.stopReason() != null ? o.stopReason()
                : "interrupted".equals(status) ? "interrupted" : "the last trial's run could not start";
        return new ExperimentResult.RateSearch(m.rateUnit(), m.latencyName(), goalMs(spec, m), goal(spec, m), trials,
                o.capacity(), o.firstFailed(), o.confirmed(), stop, capacityRun,
                atCapacity == null ? null : round(atCapacity.throughput()),
                atCapacity == null || atCapacity.sut() == null ? null : round(atCapacity.sut().cpuPercent()),
                atCapacity == null || atCapacity.figures() == null ? Map.of() : atCapacity.figures());
    }

    static List<SearchTrial> trials(ExperimentSpec spec, CapacityMeasure m, List<ExperimentAnalysis.ConfigurationRuns> configs) {
        List<SearchTrial> trials = new ArrayList<>();
        for (ExperimentAnalysis.ConfigurationRuns c : configs) {
            SearchTrial t = judge(trials.size() + 1, c.variant().label(), c.targetRate(), c.runs().get(0), spec, m);
            if (t != null) {
                trials.add(t);
            }
        }
        return trials;
    }

    /** The best "configuration" of a search: the trial at the capacity. */
    static ExperimentResult.Best best(ExperimentResult.RateSearch s, List<ExperimentResult.Configuration> configs) {
        String rule = "the highest rate that passed: " + s.goal();
        if (s.capacity() == null) {
            return new ExperimentResult.Best(null, null, null, rule, 0,
                    s.trials().isEmpty() ? "no trial has run yet" : "no rate passed");
        }
        ExperimentResult.Configuration at = configs.stream().filter(c -> s.capacityRun() != null
                && s.capacityRun().equals(c.label())).findFirst().orElse(null);
        long passed = s.trials().stream().filter(SearchTrial::passed).count();
        return new ExperimentResult.Best(at == null ? null : at.label(), "rate=" + CapacitySearch.fmt(s.capacity()),
                s.throughputAtCapacity(), rule, (int) passed, null);
    }

    private static Double round(Double v) {
        return v == null ? null : Math.round(v * 1000.0) / 1000.0;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.3g", v);
    }
}

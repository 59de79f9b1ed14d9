package perflab.history.gate;

import perflab.core.stats.Statistics;
import perflab.history.RunFigure;
import perflab.history.changes.ChangePoint;
import perflab.history.changes.EDivisive;
import perflab.history.store.HistoryStore;
import perflab.history.store.SeriesPoint;
import perflab.history.store.StoredRun;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code --no-regression}: the newest run (or the newest experiment's repeats of its configuration) against the runs
 * of the same configuration before it. The baseline is the earlier runs since their last change point (at most
 * {@link #BASELINE_MAX}), so that an old level the project has since left does not count. The test is Student's t
 * with the spread pooled over the baseline and the new runs (for a single new run: the baseline's prediction
 * interval), not Welch's: see {@link #compare}. A regression is a change the worse way for the figure, with p below
 * alpha and at least the minimum effect.
 */
public final class RegressionCheck {
    /** The figures a regression is looked for in: what a user gates on. Errors are an objective's business (errors=0). */
    public static final List<RunFigure> CHECKED = List.of(RunFigure.THROUGHPUT, RunFigure.P99, RunFigure.CPU_PER_REQUEST);
    /** The most earlier runs a baseline holds: enough for its spread, recent enough to be today's level. */
    static final int BASELINE_MAX = 30;
    /** The fewest earlier runs to compare with. */
    static final int BASELINE_MIN = 3;

    /**
     * @param alpha     a worse value is a regression only below this p (one figure's false alarms are at most half of
     *                  it: only one direction counts)
     * @param minEffect ... and only when it is at least this share worse (0.02: 2 %)
     */
    public record Settings(double alpha, double minEffect) {
        public static final Settings DEFAULT = new Settings(0.01, 0.02);
    }

    /**
     * One figure's comparison.
     *
     * @param baselineRuns  how many earlier runs the baseline held (0: too few to compare; {@code note} says so)
     * @param currentRuns   the new run, or the new experiment's repeats of the configuration
     * @param changePercent the new mean against the baseline's, in %
     * @param low           the change's 95 % interval, low end, in %
     * @param high          its high end
     * @param p             the test's two-sided p; null without a baseline
     * @param firstRun      the first run of the new values (the run checked, or the experiment's first repeat)
     */
    public record Finding(String figure, String unit, int baselineRuns, double baseline, int currentRuns,
                          double current, double changePercent, double low, double high, Double p, boolean regression,
                          long firstRun, String note) {
        /** The finding in one line: {@code p99 +31.2 % (95 % interval +20.1 to +42.3 %, p 0.0004) against 12 runs}. */
        public String describe() {
            if (baselineRuns == 0) {
                return figure + ": " + note;
            }
            return String.format(java.util.Locale.ROOT, "%s %s -> %s %s, %+.1f %% (95 %% interval %+.1f to %+.1f %%, p %.2g) "
                            + "against %d earlier run%s%s", figure, Objective.format(round(baseline)),
                    Objective.format(round(current)), unit, changePercent, low, high, p, baselineRuns,
                    baselineRuns == 1 ? "" : "s", regression ? ": REGRESSION from run " + firstRun : "");
        }

        private static double round(double v) {
            return Math.round(v * 1000) / 1000.0;
        }
    }

    private RegressionCheck() {
    }

    /** The checked figures of run {@code runId} against its configuration's earlier runs. */
    public static List<Finding> check(HistoryStore store, long runId, Settings settings) throws SQLException {
        StoredRun run = store.run(runId);
        if (run == null) {
            throw new IllegalArgumentException("the history has no run " + runId);
        }
        List<Finding> out = new ArrayList<>();
        for (RunFigure figure : CHECKED) {
            List<SeriesPoint> series = store.series(run.configKey(), "", figure.key(), true);
            // the new values: this run, or with an experiment its repeats of the configuration
            List<SeriesPoint> current = series.stream().filter(p -> p.runId() == runId
                    || (run.experiment() != null && run.experiment().equals(p.experiment()))).toList();
            if (current.isEmpty()) {
                continue; // the run lacks the figure (no CPU measured for a drive), or did not complete
            }
            int first = series.indexOf(current.get(0));
            List<SeriesPoint> earlier = series.subList(0, first);
            out.add(compare(figure, values(earlier), values(current), current.get(0).runId(), settings));
        }
        return out;
    }

    /**
     * {@code current} (one run, or repeats) against {@code earlier}, oldest first, for {@code figure}; {@code firstRun}
     * is the run the current values start at.
     */
    public static Finding compare(RunFigure figure, double[] earlier, double[] current, long firstRun, Settings settings) {
        double now = Statistics.mean(current);
        if (earlier.length < BASELINE_MIN) {
            return new Finding(figure.key(), figure.unit(), 0, Double.NaN, current.length, now, Double.NaN, Double.NaN,
                    Double.NaN, null, false, firstRun, earlier.length + " earlier run" + (earlier.length == 1 ? "" : "s")
                    + " of this configuration: " + BASELINE_MIN + " or more are needed to compare with");
        }
        double[] baseline = sinceLastChange(earlier);
        double before = Statistics.mean(baseline);
        double diff = now - before;
        // Student's t with the spread pooled over both sides: under "nothing changed" the new runs share the
        // baseline's noise, and the baseline's many runs estimate it well. Welch's test, estimating the new side's
        // spread from its two or three repeats, gave 3.4 % false alarms at a nominal 0.5 % (RegressionCheckTest's
        // figures, docs/history.md). With one new run this is the prediction interval of a new observation.
        int df = baseline.length + current.length - 2;
        double pooled = ((baseline.length - 1) * Statistics.variance(baseline)
                + (current.length > 1 ? (current.length - 1) * Statistics.variance(current) : 0)) / df;
        double se = Math.sqrt(pooled * (1.0 / baseline.length + 1.0 / current.length));
        double p;
        double half;
        if (se > 0) {
            p = 2 * (1 - Statistics.tCdf(Math.abs(diff) / se, df));
            half = Statistics.tQuantile(0.975, df) * se;
        } else {
            p = diff == 0 ? 1 : 0;
            half = 0;
        }
        double scale = before == 0 ? Double.NaN : 100 / Math.abs(before);
        double change = diff * scale;
        boolean regression = figure.better().worse(before, now) && p < settings.alpha()
                && Math.abs(diff) >= settings.minEffect() * Math.abs(before);
        return new Finding(figure.key(), figure.unit(), baseline.length, before, current.length, now, change,
                (diff - half) * scale, (diff + half) * scale, Math.max(0, Math.min(1, p)), regression, firstRun, null);
    }

    /** The earlier runs since their last change point, at most {@link #BASELINE_MAX} of the newest. */
    static double[] sinceLastChange(double[] earlier) {
        List<ChangePoint> changes = EDivisive.find(earlier, EDivisive.Settings.DEFAULT);
        int from = changes.isEmpty() ? 0 : changes.get(changes.size() - 1).index();
        from = Math.max(from, earlier.length - BASELINE_MAX);
        return Arrays.copyOfRange(earlier, from, earlier.length);
    }

    private static double[] values(List<SeriesPoint> points) {
        return points.stream().mapToDouble(SeriesPoint::value).toArray();
    }
}

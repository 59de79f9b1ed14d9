package perflab.history.changes;

import perflab.core.stats.Statistics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Change points by E-divisive means (Matteson and James, 2014), the method Apache Otava (Hunter) runs on CI
 * benchmark series, written here from the paper: a segment is split where the energy distance between its two parts
 * (with exponent 1: the mean of |x - y| across the parts against within them) is largest, and the split is kept when
 * Welch's test between the parts gives p below {@link Settings#maxP} and the means differ by at least
 * {@link Settings#minEffect}; both parts are then searched again. As in Hunter, Welch's test replaces the paper's
 * permutation test: deterministic and fast. Choosing the best of many splits before testing makes the test's p
 * optimistic; the false-positive rate over series without a change is measured instead (docs/history.md).
 * O(n^2) time per level of splitting; a configuration's series is hundreds of runs, not millions.
 */
public final class EDivisive {
    /**
     * @param maxP       a split is a change only below this p (0.0001: at 0.001, as Hunter has it, 3.8 % of 40-run
     *                   series without a change showed one here; at 0.0001, 1 %)
     * @param minEffect  ... and only when the means differ by at least this share of the earlier one (0.02: 2 %)
     * @param minSegment the fewest points on each side of a change
     */
    public record Settings(double maxP, double minEffect, int minSegment) {
        public static final Settings DEFAULT = new Settings(0.0001, 0.02, 3);

        public Settings {
            if (!(maxP > 0 && maxP < 1) || minEffect < 0 || minSegment < 2) {
                throw new IllegalArgumentException("change points: p in (0, 1), an effect >= 0 and segments of 2 or more");
            }
        }
    }

    private EDivisive() {
    }

    /** The change points of {@code xs}, in order. */
    public static List<ChangePoint> find(double[] xs, Settings settings) {
        TreeSet<Integer> splits = new TreeSet<>();
        split(xs, 0, xs.length, settings, splits);
        List<Integer> bounds = new ArrayList<>();
        bounds.add(0);
        bounds.addAll(splits);
        bounds.add(xs.length);
        List<ChangePoint> out = new ArrayList<>();
        // each change described between its neighbouring segments as finally cut, not as the search first saw it
        for (int i = 1; i + 1 < bounds.size(); i++) {
            double[] left = Arrays.copyOfRange(xs, bounds.get(i - 1), bounds.get(i));
            double[] right = Arrays.copyOfRange(xs, bounds.get(i), bounds.get(i + 1));
            out.add(describe(bounds.get(i), left, right));
        }
        return out;
    }

    private static void split(double[] xs, int from, int to, Settings s, TreeSet<Integer> splits) {
        int at = bestSplit(xs, from, to, s.minSegment());
        if (at < 0) {
            return;
        }
        double[] left = Arrays.copyOfRange(xs, from, at);
        double[] right = Arrays.copyOfRange(xs, at, to);
        if (!significant(left, right, s)) {
            return;
        }
        splits.add(at);
        split(xs, from, at, s, splits);
        split(xs, at, to, s, splits);
    }

    /** Whether two segments' means differ enough, and surely enough, to call the boundary a change. */
    static boolean significant(double[] left, double[] right, Settings s) {
        double before = Statistics.mean(left);
        double after = Statistics.mean(right);
        if (before == after || Math.abs(after - before) < s.minEffect() * Math.abs(before)) {
            return false;
        }
        return p(left, right) < s.maxP();
    }

    /** Welch's p, or 0 when neither segment varies at all and their means differ (a step in a flat line). */
    private static double p(double[] left, double[] right) {
        Statistics.Welch w = Statistics.welch(left, right);
        return w != null ? w.p() : Statistics.mean(left) != Statistics.mean(right) ? 0 : 1;
    }

    /**
     * The split of xs[from, to) with the largest energy statistic, at least {@code min} points from either end; -1
     * when the segment is too short. Pairwise distances are summed incrementally as the split moves right.
     */
    static int bestSplit(double[] xs, int from, int to, int min) {
        int n = to - from;
        if (n < 2 * min) {
            return -1;
        }
        // within(left), within(right) and across, for the split at from + min, computed once
        int first = from + min;
        double withinLeft = 0;
        double withinRight = 0;
        double across = 0;
        for (int i = from; i < to; i++) {
            for (int j = i + 1; j < to; j++) {
                double d = Math.abs(xs[i] - xs[j]);
                if (j < first) {
                    withinLeft += d;
                } else if (i >= first) {
                    withinRight += d;
                } else {
                    across += d;
                }
            }
        }
        int best = -1;
        double bestQ = Double.NEGATIVE_INFINITY;
        for (int at = first; at <= to - min; at++) {
            if (at > first) {
                // point at - 1 moves from the right part to the left
                int moved = at - 1;
                double toLeft = 0;
                double toRight = 0;
                for (int i = from; i < moved; i++) {
                    toLeft += Math.abs(xs[i] - xs[moved]);
                }
                for (int j = moved + 1; j < to; j++) {
                    toRight += Math.abs(xs[moved] - xs[j]);
                }
                withinLeft += toLeft;
                across -= toLeft;
                withinRight -= toRight;
                across += toRight;
            }
            double q = statistic(at - from, to - at, withinLeft, withinRight, across);
            if (q > bestQ) {
                bestQ = q;
                best = at;
            }
        }
        return best;
    }

    /**
     * Matteson and James's Q-hat for a split into m and k points: the scaled energy distance between the parts,
     * m k / (m + k) * (2 mean|across| - mean|within left| - mean|within right|).
     */
    static double statistic(int m, int k, double withinLeft, double withinRight, double across) {
        double meanAcross = across / ((double) m * k);
        double meanLeft = m > 1 ? withinLeft / (m * (m - 1) / 2.0) : 0;
        double meanRight = k > 1 ? withinRight / (k * (k - 1) / 2.0) : 0;
        return (double) m * k / (m + k) * (2 * meanAcross - meanLeft - meanRight);
    }

    /** A change between two segments with its size in % and that size's 95 % interval. */
    static ChangePoint describe(int index, double[] left, double[] right) {
        double before = Statistics.mean(left);
        double after = Statistics.mean(right);
        double se = Math.sqrt(Statistics.variance(left) / left.length + Statistics.variance(right) / right.length);
        Statistics.Welch w = Statistics.welch(left, right);
        double half = w == null ? 0 : Statistics.tQuantile(0.975, w.df()) * se;
        double scale = before == 0 ? Double.NaN : 100 / Math.abs(before);
        return new ChangePoint(index, before, after, (after - before) * scale, (after - before - half) * scale,
                (after - before + half) * scale, p(left, right));
    }
}

package perflab.core.stats;

import perflab.core.result.ExperimentResult.Interval;

/**
 * The statistics of an experiment, in one place: mean and 95 % interval of per-run values (Student t), and
 * Welch's two-sided t-test between two configurations' per-run values. A run's per-second samples are
 * correlated, so the unit of observation is the run, never the second. The t distribution's CDF is the
 * regularized incomplete beta function (continued fraction, Numerical Recipes' method).
 */
public final class Statistics {
    /** Significance level of the gains' tests. */
    public static final double ALPHA = 0.05;

    private Statistics() {
    }

    public static double mean(double[] xs) {
        double sum = 0;
        for (double x : xs) {
            sum += x;
        }
        return sum / xs.length;
    }

    /** Sample variance (n - 1); NaN for fewer than two values. */
    public static double variance(double[] xs) {
        if (xs.length < 2) {
            return Double.NaN;
        }
        return squares(xs) / (xs.length - 1);
    }

    /** Mean, standard deviation and 95 % interval of the mean; the spread is null for a single value. */
    public static Interval interval(double[] xs) {
        if (xs.length == 0) {
            return null;
        }
        double m = mean(xs);
        if (xs.length < 2) {
            return new Interval(1, round(m), null, null, null);
        }
        double sd = Math.sqrt(variance(xs));
        double half = tQuantile(1 - ALPHA / 2, xs.length - 1) * sd / Math.sqrt(xs.length);
        return new Interval(xs.length, round(m), round(sd), round(m - half), round(m + half));
    }

    /**
     * Where sorted per-run values split into two groups far apart, or -1: the index of the first value of the upper
     * group. Two groups when the widest gap between neighbours is at least {@link #CLUSTER_GAP_SPREADS} times the
     * groups' pooled standard deviation (floored at 1 % of the mean, so that very tight runs are not split by
     * their last digits) and at least {@link #CLUSTER_GAP_SHARE} of the mean. Needs three values: two always
     * form two "groups", and are judged by {@link #CLUSTER_GAP_SHARE} alone by the caller.
     */
    public static int twoGroups(double[] sorted) {
        int n = sorted.length;
        if (n < 3) {
            return -1;
        }
        int split = -1;
        double widest = 0;
        for (int i = 1; i < n; i++) {
            double gap = sorted[i] - sorted[i - 1];
            if (gap > widest) {
                widest = gap;
                split = i;
            }
        }
        if (split < 0) {
            return -1; // every run measured the same (an open model's fixed rate): one group
        }
        double[] low = java.util.Arrays.copyOfRange(sorted, 0, split);
        double[] high = java.util.Arrays.copyOfRange(sorted, split, n);
        double within = Math.sqrt((squares(low) + squares(high)) / Math.max(1, n - 2));
        double m = mean(sorted);
        return widest >= CLUSTER_GAP_SPREADS * Math.max(within, 0.01 * Math.abs(m)) && widest >= CLUSTER_GAP_SHARE * Math.abs(m)
                ? split : -1;
    }

    /** Two groups' gap: at least this many pooled standard deviations. */
    public static final double CLUSTER_GAP_SPREADS = 4;
    /** ... and at least this share of the mean. */
    public static final double CLUSTER_GAP_SHARE = 0.10;

    /** The sum of squared deviations from the mean; 0 for no values. */
    private static double squares(double[] xs) {
        if (xs.length == 0) {
            return 0;
        }
        double m = mean(xs);
        double sum = 0;
        for (double x : xs) {
            sum += (x - m) * (x - m);
        }
        return sum;
    }

    /** Welch's t-test: t, Welch-Satterthwaite degrees of freedom, two-sided p. */
    public record Welch(double t, double df, double p) {
        public boolean significant() {
            return p < ALPHA;
        }
    }

    /**
     * Welch's test of mean(a) vs mean(b); null when either side has fewer than two values or neither has any
     * spread (then there is nothing to test).
     */
    public static Welch welch(double[] a, double[] b) {
        if (a.length < 2 || b.length < 2) {
            return null;
        }
        double va = variance(a) / a.length;
        double vb = variance(b) / b.length;
        double se2 = va + vb;
        if (!(se2 > 0)) {
            return null;
        }
        double t = (mean(a) - mean(b)) / Math.sqrt(se2);
        double df = se2 * se2 / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
        double p = 2 * (1 - tCdf(Math.abs(t), df));
        return new Welch(t, df, Math.max(0, Math.min(1, p)));
    }

    /** Student's t distribution's cumulative distribution function. */
    public static double tCdf(double t, double df) {
        if (Double.isInfinite(t)) {
            return t > 0 ? 1 : 0;
        }
        double x = df / (df + t * t);
        double tail = 0.5 * regularizedIncompleteBeta(x, df / 2, 0.5);
        return t >= 0 ? 1 - tail : tail;
    }

    /** The t distribution's quantile (inverse CDF), by bisection on {@link #tCdf}. */
    public static double tQuantile(double p, double df) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("p must be within (0, 1), got " + p);
        }
        double lo = -1;
        double hi = 1;
        while (tCdf(lo, df) > p) {
            lo *= 2;
        }
        while (tCdf(hi, df) < p) {
            hi *= 2;
        }
        for (int i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, Math.abs(hi)); i++) {
            double mid = (lo + hi) / 2;
            if (tCdf(mid, df) < p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** I_x(a, b), the regularized incomplete beta function. */
    public static double regularizedIncompleteBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
        // the continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise
        if (x < (a + 1) / (a + b + 2)) {
            return front * betaContinuedFraction(x, a, b) / a;
        }
        return 1 - front * betaContinuedFraction(1 - x, b, a) / b;
    }

    /** Lentz's method for the incomplete beta continued fraction. */
    private static double betaContinuedFraction(double x, double a, double b) {
        final double tiny = 1e-300;
        final double eps = 1e-15;
        double qab = a + b;
        double qap = a + 1;
        double qam = a - 1;
        double c = 1;
        double d = 1 - qab * x / qap;
        if (Math.abs(d) < tiny) {
            d = tiny;
        }
        d = 1 / d;
        double h = d;
        for (int m = 1; m <= 10_000; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < tiny) {
                d = tiny;
            }
            c = 1 + aa / c;
            if (Math.abs(c) < tiny) {
                c = tiny;
            }
            d = 1 / d;
            h *= d * c;
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < tiny) {
                d = tiny;
            }
            c = 1 + aa / c;
            if (Math.abs(c) < tiny) {
                c = tiny;
            }
            d = 1 / d;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1) < eps) {
                break;
            }
        }
        return h;
    }

    /** ln Γ(x) for x > 0 (Lanczos approximation, g = 7, 9 terms; ~15 significant digits). */
    public static double logGamma(double x) {
        if (x < 0.5) {
            // reflection: Γ(x) Γ(1 - x) = π / sin(πx)
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        }
        double[] g = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
                -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
                1.5056327351493116e-7};
        double z = x - 1;
        double sum = g[0];
        for (int i = 1; i < g.length; i++) {
            sum += g[i] / (z + i);
        }
        double t = z + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
    }

    static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}

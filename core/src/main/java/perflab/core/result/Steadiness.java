package perflab.core.result;

/**
 * Judges whether per-second throughput was steady: a run still warming up (JIT, caches, pools) shows a trend,
 * a disturbed one a high spread. Per-second samples of one run are correlated, so this is a description of
 * the run, not a significance test.
 */
public final class Steadiness {
    /** Above this coefficient of variation the window is not steady. */
    public static final double MAX_CV = 0.10;
    /**
     * Above this change of the fitted line across the window (first second to last, % of the mean) the window is
     * not steady. A bound on the change, not on the slope per minute: per-second noise alone moves a short window's
     * fitted slope a lot (5 % noise over 20 s: ±12 %/min one time in three, a change of ±4 %), while a ramp that
     * matters (a window climbing from 10k to 23k req/s) changes by far more than this.
     */
    public static final double MAX_DRIFT_PERCENT = 10.0;

    private Steadiness() {
    }

    public static RunSummary.Steadiness of(double[] perSecond) {
        int n = perSecond.length;
        if (n < 3) {
            return new RunSummary.Steadiness(false, 0, 0, 0, n);
        }
        double mean = 0;
        for (double v : perSecond) {
            mean += v;
        }
        mean /= n;
        double var = 0;
        double sxy = 0;
        double sxx = 0;
        double xMean = (n - 1) / 2.0;
        for (int i = 0; i < n; i++) {
            double d = perSecond[i] - mean;
            var += d * d;
            sxy += (i - xMean) * d;
            sxx += (i - xMean) * (i - xMean);
        }
        double sd = Math.sqrt(var / (n - 1));
        double cv = mean > 0 ? sd / mean : 0;
        double slopePerSecond = sxx > 0 ? sxy / sxx : 0;
        double trend = mean > 0 ? 100.0 * slopePerSecond * 60 / mean : 0;
        double drift = mean > 0 ? 100.0 * slopePerSecond * (n - 1) / mean : 0;
        boolean steady = mean > 0 && cv <= MAX_CV && Math.abs(drift) <= MAX_DRIFT_PERCENT;
        return new RunSummary.Steadiness(steady, round(cv), round(trend), round(drift), n);
    }

    private static double round(double v) {
        return Math.round(v * 10000.0) / 10000.0;
    }
}

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
        double[] seconds = new double[n];
        double mean = 0;
        for (int i = 0; i < n; i++) {
            seconds[i] = i;
            mean += perSecond[i];
        }
        mean /= n;
        double var = 0;
        for (double v : perSecond) {
            var += (v - mean) * (v - mean);
        }
        double sd = Math.sqrt(var / (n - 1));
        double cv = mean > 0 ? sd / mean : 0;
        double change = fittedChange(seconds, perSecond);
        double drift = 100.0 * change;
        double trend = 100.0 * change * 60 / (n - 1);
        boolean steady = mean > 0 && cv <= MAX_CV && Math.abs(drift) <= MAX_DRIFT_PERCENT;
        return new RunSummary.Steadiness(steady, round(cv), round(trend), round(drift), n);
    }

    /**
     * The least-squares line through the points, its change from the first x to the last as a share of the mean y
     * (0.1: it rose by 10 % of the mean across them); 0 when the points have no spread in x or no positive mean.
     * Also the automatic warm-up's rule for a throughput still climbing, so both judge a trend alike.
     */
    public static double fittedChange(double[] x, double[] y) {
        int n = Math.min(x.length, y.length);
        if (n < 2) {
            return 0;
        }
        double meanX = 0;
        double meanY = 0;
        for (int i = 0; i < n; i++) {
            meanX += x[i];
            meanY += y[i];
        }
        meanX /= n;
        meanY /= n;
        double sxy = 0;
        double sxx = 0;
        double minX = x[0];
        double maxX = x[0];
        for (int i = 0; i < n; i++) {
            sxy += (x[i] - meanX) * (y[i] - meanY);
            sxx += (x[i] - meanX) * (x[i] - meanX);
            minX = Math.min(minX, x[i]);
            maxX = Math.max(maxX, x[i]);
        }
        return sxx > 0 && meanY > 0 ? sxy / sxx * (maxX - minX) / meanY : 0;
    }

    private static double round(double v) {
        return Math.round(v * 10000.0) / 10000.0;
    }
}

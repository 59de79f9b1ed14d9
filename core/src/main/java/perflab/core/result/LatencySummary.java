package perflab.core.result;

import org.HdrHistogram.AbstractHistogram;

/**
 * Percentiles of one latency histogram, in milliseconds. perflab's histograms record microseconds
 * ({@link #UNIT_PER_MS} units per millisecond). Always computed from a (merged) histogram, never averaged.
 */
public record LatencySummary(long count, double mean, double p50, double p90, double p95, double p99, double p999,
                             double max) {
    public static final double UNIT_PER_MS = 1000.0;

    public static LatencySummary of(AbstractHistogram h) {
        if (h == null || h.getTotalCount() == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0);
        }
        return new LatencySummary(h.getTotalCount(), round(h.getMean() / UNIT_PER_MS),
                ms(h, 50), ms(h, 90), ms(h, 95), ms(h, 99), ms(h, 99.9), round(h.getMaxValue() / UNIT_PER_MS));
    }

    private static double ms(AbstractHistogram h, double percentile) {
        return round(h.getValueAtPercentile(percentile) / UNIT_PER_MS);
    }

    static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}

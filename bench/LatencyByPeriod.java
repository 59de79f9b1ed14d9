import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import perflab.report.ReportLatency;

import java.nio.file.Path;
import java.util.List;

/**
 * A run's measured latency per period (bench/billion.sh: per hour): the latency.hlog intervals of the measured
 * phase added up by the period they start in (histograms add exactly; percentiles are never averaged), one
 * Markdown row per period. Run as a single-file program on perflab's classpath:
 *
 *     java -cp cli/target/perflab-cli.jar bench/LatencyByPeriod.java RUN_DIR/latency.hlog 3600
 */
public final class LatencyByPeriod {
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: LatencyByPeriod LATENCY_HLOG PERIOD_SECONDS");
            System.exit(2);
        }
        List<AbstractHistogram> intervals = ReportLatency.intervals(Path.of(args[0]), "measure");
        long periodMs = Long.parseLong(args[1]) * 1000;
        if (intervals.isEmpty()) {
            System.err.println(args[0] + ": no measured intervals");
            System.exit(1);
        }
        long first = intervals.get(0).getStartTimeStamp();
        System.out.println("| period | from (s) | calls | calls/s | p50 ms | p90 ms | p99 ms | p99.9 ms | p99.99 ms | max ms |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        int period = 0;
        Histogram sum = null;
        long sumStart = first;
        long sumEnd = first;
        for (AbstractHistogram h : intervals) {
            int p = (int) ((h.getStartTimeStamp() - first) / periodMs);
            if (sum != null && p != period) {
                row(period, first, sum, sumStart, sumEnd);
                sum = null;
            }
            if (sum == null) {
                sum = new Histogram(3);
                sum.setAutoResize(true);
                sumStart = h.getStartTimeStamp();
                period = p;
            }
            sum.add(h);
            sumEnd = h.getEndTimeStamp();
        }
        row(period, first, sum, sumStart, sumEnd);
    }

    private static void row(int period, long first, Histogram h, long startMs, long endMs) {
        double seconds = Math.max(1e-3, (endMs - startMs) / 1000.0);
        System.out.printf(java.util.Locale.ROOT, "| %d | %d | %,d | %,.0f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |%n",
                period + 1, (startMs - first) / 1000, h.getTotalCount(), h.getTotalCount() / seconds,
                ms(h, 50), ms(h, 90), ms(h, 99), ms(h, 99.9), ms(h, 99.99), h.getMaxValue() / 1000.0);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1000.0;
    }
}

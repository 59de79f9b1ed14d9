package perflab.report;

import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.HistogramLogReader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Latency distributions from a run's HdrHistogram interval logs (µs, tag = phase): the intervals of one phase
 * added (histograms merge exactly; percentiles are never averaged), and their percentile spectrum.
 */
public final class ReportLatency {
    private static final double US_PER_MS = 1000.0;

    private ReportLatency() {
    }

    /** The sum of the log's intervals tagged {@code phase}; null when the log is missing or has none. */
    public static Histogram merged(Path hlog, String phase) throws IOException {
        Histogram sum = new Histogram(3);
        sum.setAutoResize(true);
        intervals(hlog, phase).forEach(sum::add);
        return sum.getTotalCount() > 0 ? sum : null;
    }

    /**
     * The log's intervals tagged {@code phase}, in order, each with its start and end time stamps (epoch ms); none
     * when the log is missing. A truncated last line (a killed run) ends the log: what was read before it is kept.
     */
    public static List<AbstractHistogram> intervals(Path hlog, String phase) throws IOException {
        List<AbstractHistogram> intervals = new ArrayList<>();
        if (!Files.isRegularFile(hlog)) {
            return intervals;
        }
        boolean any = false;
        try {
            HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
            for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
                if (h instanceof AbstractHistogram a && phase.equals(a.getTag())) {
                    intervals.add(a);
                    any = true;
                }
            }
        } catch (RuntimeException e) {
            if (!any) {
                throw new IOException(hlog + " is not a readable HdrHistogram log: " + e.getMessage(), e);
            }
        }
        return intervals;
    }

    /** Points of the percentile spectrum: x = 1 / (1 - p) (the percentile axis of {@link Chart}), y = ms. */
    public record Spectrum(double[] x, double[] ms, double maxMs, long count) {
    }

    /** HdrHistogram's percentile iteration, 5 steps per halving of the distance to 100%; null for no histogram. */
    public static Spectrum spectrum(Histogram h) {
        if (h == null) {
            return null;
        }
        List<double[]> points = new ArrayList<>();
        for (HistogramIterationValue v : h.percentiles(5)) {
            double p = v.getPercentileLevelIteratedTo() / 100.0;
            if (p >= 1.0) {
                break; // 1 / (1 - p) is infinite: the max is given separately
            }
            points.add(new double[]{1.0 / (1.0 - p), v.getValueIteratedTo() / US_PER_MS});
        }
        double[] x = new double[points.size()];
        double[] y = new double[points.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = points.get(i)[0];
            y[i] = points.get(i)[1];
        }
        return new Spectrum(x, y, h.getMaxValue() / US_PER_MS, h.getTotalCount());
    }
}

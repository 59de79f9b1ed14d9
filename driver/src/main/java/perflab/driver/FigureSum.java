package perflab.driver;

import org.HdrHistogram.Histogram;
import perflab.core.traffic.ErrorKind;

import java.util.Map;

/**
 * The figures an interval and a measured window have alike, added exactly over driver processes: the four
 * histograms, errors by kind, per-kind figures, successes and bytes. {@link DriverResults} adds the rest of each.
 */
final class FigureSum {
    final Histogram latency = new Histogram(LoopStats.DIGITS);
    final Histogram service = new Histogram(LoopStats.DIGITS);
    final Histogram failed = new Histogram(LoopStats.DIGITS);
    final Histogram lag = new Histogram(LoopStats.DIGITS);
    final Map<ErrorKind, Long> errors = KindSum.noErrors();
    private final KindSum kinds = new KindSum();
    long successes;
    long sent;
    long received;

    void add(Histogram latencyOf, Histogram serviceOf, Histogram failedOf, Histogram lagOf, Map<ErrorKind, Long> errorsOf,
             Map<String, KindFigures> byKind, long successesOf, long sentOf, long receivedOf) {
        latency.add(latencyOf);
        service.add(serviceOf);
        failed.add(failedOf);
        lag.add(lagOf);
        errorsOf.forEach((k, v) -> errors.merge(k, v, Long::sum));
        kinds.add(byKind);
        successes += successesOf;
        sent += sentOf;
        received += receivedOf;
    }

    Map<String, KindFigures> byKind() {
        return kinds.sum();
    }
}

package perflab.driver;

import org.HdrHistogram.Histogram;
import perflab.core.traffic.ErrorKind;

import java.util.Map;

/**
 * What happened in one second of the run (the last interval may be shorter). Histograms are in microseconds
 * and belong to the listener (copies, not the driver's live recorders).
 *
 * @param elapsedSeconds seconds since the start of the phase at the end of this interval
 * @param latency        successful requests: from intended send time (open model) or send time (closed)
 * @param serviceTime    successful requests: from actual send time
 * @param failed         failed requests' latencies
 * @param lag            open model: how late the driver sent requests that had a free connection
 * @param byKind         the interval's figures per request kind (kinds with requests in it, in the traffic's
 *                       order); they add up to the interval's successes and errors
 */
public record Interval(Phase phase, long startEpochMs, long endEpochMs, double elapsedSeconds, long successes,
                       Map<ErrorKind, Long> errors, Histogram latency, Histogram serviceTime, Histogram failed,
                       Histogram lag, long bytesSent, long bytesReceived, Map<String, KindFigures> byKind) {
    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    public double seconds() {
        return Math.max(1e-3, (endEpochMs - startEpochMs) / 1000.0);
    }
}

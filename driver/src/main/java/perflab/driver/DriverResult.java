package perflab.driver;

import org.HdrHistogram.Histogram;
import perflab.core.traffic.ErrorKind;

import java.util.List;
import java.util.Map;

/**
 * The measured window of one driver process. Histograms (microseconds) and counters merge exactly across
 * driver processes; percentiles are computed from them, never averaged.
 *
 * @param complete        false if the run was stopped early (Ctrl-C, SUT crash, fatal error)
 * @param endReason       "completed", "interrupted", or what stopped it
 * @param measuredSeconds length of the measured window
 * @param errors          measured errors by kind (every kind present, zeros included)
 * @param errorSamples    the first few error messages, for the user to see what went wrong
 * @param driverCpuSeconds the driver process's CPU in the measured window
 * @param driverGcPauseMs  the driver JVM's own GC pause time in the measured window
 * @param saturated       whether the driver (not the SUT) limited the run
 * @param saturationReason why, or null
 * @param bytesSent       request bytes written in the measured window
 * @param bytesReceived   response bytes read in the measured window
 * @param resent          idempotent requests sent again, as a browser does, because the kept-alive connection they
 *                        went out on closed without a byte of answer (a server or proxy that died or closed it)
 * @param byKind          the same figures per request kind (kinds with requests only, in the traffic's order);
 *                        they add up to the totals
 */
public record DriverResult(boolean complete, String endReason, long measureStartEpochMs, long measureEndEpochMs,
                           double measuredSeconds, long successes, Map<ErrorKind, Long> errors,
                           List<String> errorSamples, Histogram latency, Histogram serviceTime,
                           Histogram failedLatency, Histogram lag, long warmupRequests, long connectionsOpened,
                           double driverCpuSeconds, double driverGcPauseMs, boolean saturated,
                           String saturationReason, long bytesSent, long bytesReceived, long resent,
                           Map<String, KindFigures> byKind) {
    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Measured successes by request kind. */
    public Map<String, Long> successesByKind() {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        byKind.forEach((k, f) -> m.put(k, f.successes()));
        return m;
    }

    public long requests() {
        return successes + errorCount();
    }
}

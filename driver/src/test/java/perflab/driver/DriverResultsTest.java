package perflab.driver;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import perflab.core.traffic.ErrorKind;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DriverResultsTest {
    private static Histogram histogram(long... values) {
        Histogram h = LoopStats.histogram();
        for (long v : values) {
            h.recordValue(v);
        }
        return h;
    }

    private static DriverResult result(boolean complete, long successes, long timeouts, long[] latencies, boolean saturated) {
        Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, 0L);
        }
        errors.put(ErrorKind.TIMEOUT, timeouts);
        return new DriverResult(complete, complete ? "completed" : "interrupted", 1000, 11_000, 10.0, successes, errors,
                List.of("timeout: x"), histogram(latencies), histogram(latencies), histogram(30_000_000), histogram(5),
                7, 3, 1.5, 2.0, saturated, saturated ? "cpu" : null, 100, 200, 1,
                Map.of("echo", new KindFigures(successes, errors, histogram(latencies))));
    }

    @Test
    void mergeAddsHistogramsAndCountersExactly() {
        DriverResult a = result(true, 3, 1, new long[]{100, 200, 300}, false);
        DriverResult b = result(true, 2, 2, new long[]{1000, 2000}, true);
        DriverResult m = DriverResults.merge(List.of(a, b));
        assertEquals(5, m.successes());
        assertEquals(3L, m.errors().get(ErrorKind.TIMEOUT));
        assertEquals(0L, m.errors().get(ErrorKind.CONNECT));
        assertEquals(8, m.requests());
        assertEquals(5, m.latency().getTotalCount());
        assertEquals(2000, m.latency().getMaxValue(), 2);
        assertEquals(100, m.latency().getMinValue(), 1);
        assertEquals(2, m.failedLatency().getTotalCount());
        assertEquals(2, m.lag().getTotalCount());
        assertEquals(14, m.warmupRequests());
        assertEquals(6, m.connectionsOpened());
        assertEquals(2, m.resent(), "resent requests add up across drivers");
        assertEquals(3.0, m.driverCpuSeconds(), 1e-9);
        assertEquals(4.0, m.driverGcPauseMs(), 1e-9);
        assertEquals(200, m.bytesSent());
        assertEquals(400, m.bytesReceived());
        assertEquals(5L, m.successesByKind().get("echo"));
        assertEquals(3L, m.byKind().get("echo").errors().get(ErrorKind.TIMEOUT));
        assertEquals(5, m.byKind().get("echo").latency().getTotalCount());
        assertEquals(10.0, m.measuredSeconds(), 1e-9);
        assertTrue(m.saturated());
        assertTrue(m.saturationReason().contains("driver 1"));
        assertTrue(m.complete());
        assertEquals(2, m.errorSamples().size());
        // the inputs are untouched
        assertEquals(3, a.latency().getTotalCount());

        DriverResult partial = DriverResults.merge(List.of(a, result(false, 1, 0, new long[]{5}, false)));
        assertFalse(partial.complete());
        assertFalse(partial.saturated());
    }
}

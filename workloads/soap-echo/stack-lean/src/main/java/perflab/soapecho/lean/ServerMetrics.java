package perflab.soapecho.lean;

import java.util.concurrent.atomic.LongAdder;

/**
 * Request count, HTTP version and total service time (the old PMI counters), kept only when --server-metrics
 * is on. The HTTP/2 count is the server's own evidence that h2c was really used.
 */
final class ServerMetrics {
    private final LongAdder requests = new LongAdder();
    private final LongAdder http2 = new LongAdder();
    private final LongAdder faults = new LongAdder();
    private final LongAdder serviceNanos = new LongAdder();

    void record(long nanos, boolean fault, boolean overHttp2) {
        requests.increment();
        if (overHttp2) {
            http2.increment();
        }
        serviceNanos.add(nanos);
        if (fault) {
            faults.increment();
        }
    }

    long requests() {
        return requests.sum();
    }

    long http2Requests() {
        return http2.sum();
    }

    /** One line for stdout: {@code PERFLAB-METRICS requests=N h2=H faults=F serviceNanos=S meanServiceMicros=M}. */
    String summaryLine() {
        long n = requests.sum();
        long nanos = serviceNanos.sum();
        return String.format(java.util.Locale.ROOT, "PERFLAB-METRICS requests=%d h2=%d faults=%d serviceNanos=%d meanServiceMicros=%.1f",
                n, http2.sum(), faults.sum(), nanos, n == 0 ? 0.0 : nanos / 1000.0 / n);
    }
}

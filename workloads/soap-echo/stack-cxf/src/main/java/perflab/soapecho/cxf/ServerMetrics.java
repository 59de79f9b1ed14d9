package perflab.soapecho.cxf;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * Service requests (POSTs), their HTTP version and total service time (the old PMI counters), kept only when
 * --server-metrics is on. The HTTP/2 count is the server's own evidence that h2c was really used.
 */
final class ServerMetrics {
    private final LongAdder requests = new LongAdder();
    private final LongAdder http2 = new LongAdder();
    private final LongAdder faults = new LongAdder();
    private final LongAdder serviceNanos = new LongAdder();

    void record(long nanos, boolean fault, boolean overHttp2) {
        requests.increment();
        serviceNanos.add(nanos);
        if (overHttp2) {
            http2.increment();
        }
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

    /** {@code PERFLAB-METRICS requests=N h2=H faults=F serviceNanos=S meanServiceMicros=M}, as the lean stack prints it. */
    String summaryLine() {
        long n = requests.sum();
        long nanos = serviceNanos.sum();
        return String.format(Locale.ROOT, "PERFLAB-METRICS requests=%d h2=%d faults=%d serviceNanos=%d meanServiceMicros=%.1f",
                n, http2.sum(), faults.sum(), nanos, n == 0 ? 0.0 : nanos / 1000.0 / n);
    }
}

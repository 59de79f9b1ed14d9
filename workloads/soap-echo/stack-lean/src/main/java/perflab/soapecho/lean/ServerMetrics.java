package perflab.soapecho.lean;

import java.util.concurrent.atomic.LongAdder;

/** Request count and total service time (the old PMI counters), kept only when --server-metrics is on. */
final class ServerMetrics {
    private final LongAdder requests = new LongAdder();
    private final LongAdder faults = new LongAdder();
    private final LongAdder serviceNanos = new LongAdder();

    void record(long nanos, boolean fault) {
        requests.increment();
        serviceNanos.add(nanos);
        if (fault) {
            faults.increment();
        }
    }

    long requests() {
        return requests.sum();
    }

    /** One line for stdout: {@code PERFLAB-METRICS requests=N faults=F serviceNanos=S meanServiceMicros=M}. */
    String summaryLine() {
        long n = requests.sum();
        long nanos = serviceNanos.sum();
        return String.format(java.util.Locale.ROOT, "PERFLAB-METRICS requests=%d faults=%d serviceNanos=%d meanServiceMicros=%.1f",
                n, faults.sum(), nanos, n == 0 ? 0.0 : nanos / 1000.0 / n);
    }
}

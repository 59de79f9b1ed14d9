package perflab.core.sut;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * A SUT's own counters (the old PMI counters), kept only with {@code --server-metrics on}: service requests,
 * those over HTTP/2, faults and total service time. The HTTP/2 count is the server's own evidence that h2c
 * was really used. {@link StartedServer#stop()} prints {@link #summaryLine()} on stdout.
 */
public final class ServerMetrics {
    /** The first word of the summary line. */
    public static final String LINE_PREFIX = "PERFLAB-METRICS";

    private final LongAdder requests = new LongAdder();
    private final LongAdder http2 = new LongAdder();
    private final LongAdder faults = new LongAdder();
    private final LongAdder serviceNanos = new LongAdder();

    /** Records one service request; called by many server threads at once. */
    public void record(long nanos, boolean fault, boolean overHttp2) {
        requests.increment();
        serviceNanos.add(nanos);
        if (overHttp2) {
            http2.increment();
        }
        if (fault) {
            faults.increment();
        }
    }

    public long requests() {
        return requests.sum();
    }

    public long http2Requests() {
        return http2.sum();
    }

    public long faults() {
        return faults.sum();
    }

    /** One line for stdout: {@code PERFLAB-METRICS requests=N h2=H faults=F serviceNanos=S meanServiceMicros=M}. */
    public String summaryLine() {
        long n = requests.sum();
        long nanos = serviceNanos.sum();
        return String.format(Locale.ROOT, "%s requests=%d h2=%d faults=%d serviceNanos=%d meanServiceMicros=%.1f",
                LINE_PREFIX, n, http2.sum(), faults.sum(), nanos, n == 0 ? 0.0 : nanos / 1000.0 / n);
    }
}

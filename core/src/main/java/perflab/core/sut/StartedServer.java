package perflab.core.sut;

/**
 * A stack's started server: the port it bound, its metrics when kept, and how it stops. Stopping prints the
 * metrics line on stdout after the server has stopped, so that it counts every request that was in flight.
 */
public final class StartedServer implements RunningServer {
    /** A stack's own graceful stop (stop connectors, let in-flight requests finish, release resources). */
    @FunctionalInterface
    public interface Stop {
        void stop() throws Exception;
    }

    private final int port;
    private final ServerMetrics metrics; // null when off
    private final Stop stop;

    /** @param metrics null when {@code --server-metrics} is off */
    public StartedServer(int port, ServerMetrics metrics, Stop stop) {
        this.port = port;
        this.metrics = metrics;
        this.stop = stop;
    }

    @Override
    public int port() {
        return port;
    }

    /** The server's counters, or null when {@code --server-metrics} is off; tests read them without parsing stdout. */
    public ServerMetrics metrics() {
        return metrics;
    }

    @Override
    public void stop() throws Exception {
        stop.stop();
        if (metrics != null) {
            System.out.println(metrics.summaryLine());
            System.out.flush();
        }
    }
}

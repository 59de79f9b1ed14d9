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
    private final java.util.Map<String, Object> facts;

    /** @param metrics null when {@code --server-metrics} is off */
    public StartedServer(int port, ServerMetrics metrics, Stop stop) {
        this(port, metrics, stop, java.util.Map.of());
    }

    private StartedServer(int port, ServerMetrics metrics, Stop stop, java.util.Map<String, Object> facts) {
        this.port = port;
        this.metrics = metrics;
        this.stop = stop;
        this.facts = facts;
    }

    /** The same server, announcing {@code facts} ({@link RunningServer#startupFacts()}) in that order. */
    public StartedServer withStartupFacts(java.util.Map<String, Object> facts) {
        facts.keySet().forEach(name -> {
            if (!name.matches(SutBootstrap.FACT_NAME)) {
                throw new IllegalArgumentException("a startup fact's name is a Java identifier, got '" + name + "'");
            }
        });
        return new StartedServer(port, metrics, stop,
                java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(facts)));
    }

    @Override
    public java.util.Map<String, Object> startupFacts() {
        return facts;
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

package perflab.core.server;

/**
 * A kind of system under test perflab can start (a plugin, found through {@link java.util.ServiceLoader}: one line in
 * META-INF/services/perflab.core.server.ServerKind of its module): it lays out the command of one SUT process from the
 * run's SUT settings. perflab's own kind, {@code stack}, starts a workload's stack in a JVM of its own through
 * {@link perflab.core.sut.SutBootstrap}; a workload's stack names the kind that starts it
 * ({@link perflab.core.workload.StackInfo#kind}). The run starts, watches, samples, kills and restarts what the kind
 * laid out, whatever the kind.
 */
public interface ServerKind {
    /** The name a stack gives as its kind; lower-case. */
    String name();

    /**
     * Lays out one SUT process; throws IllegalArgumentException with a one-line reason (a setting the kind cannot
     * take, a server not built or not installed).
     */
    ServerPlan plan(ServerRequest request);

    /** Whether this kind starts the servers users declare in server files ({@link ServerFile}); one kind does. */
    default boolean startsServerFiles() {
        return false;
    }
}

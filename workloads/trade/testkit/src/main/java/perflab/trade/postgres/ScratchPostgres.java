package perflab.trade.postgres;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A throwaway PostgreSQL server for other modules' tests (shipped in this module's test-jar): a fresh cluster made
 * by initdb in a temporary directory, served on a free port of 127.0.0.1 with settings that trade durability for
 * speed, and on {@link #close} (or, as a backstop, at the JVM's exit) stopped and deleted. It is the companion's
 * {@link ThrowawayCluster} without a cache, so it runs as the companion does: as the {@code postgres} user when the
 * tests run as root, the postmaster a child of this JVM that the kernel stops if the JVM dies.
 *
 * <p>The server is started from a thread of its own that waits until {@link #close}: the kernel's parent-death
 * signal that stops the postmaster follows the thread that started it (see {@link ClusterOwner}), and a test's
 * thread may end long before the JVM does.
 */
public final class ScratchPostgres implements AutoCloseable {
    /**
     * Nothing here must survive a crash: no flushes to disk, no background vacuum between tests. The log keeps the
     * server's own lines (LOG, FATAL; no checkpoints) but not the errors of statements, which tests provoke on purpose (a taken user
     * id) and which a failing test's exception carries anyway.
     */
    static final Map<String, String> SETTINGS = settings();
    private static final long START_SECONDS = 180;

    private final ThrowawayCluster cluster;
    private final CountDownLatch closed;

    private ScratchPostgres(ThrowawayCluster cluster, CountDownLatch closed) {
        this.cluster = cluster;
        this.closed = closed;
    }

    private static Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("fsync", "off");
        s.put("synchronous_commit", "off");
        s.put("full_page_writes", "off");
        s.put("autovacuum", "off");
        s.put("max_connections", "100");
        s.put("log_min_messages", "log");
        s.put("log_checkpoints", "off");
        return s;
    }

    /**
     * Starts a server; throws IllegalStateException with a one-line reason when it cannot (PostgreSQL is not
     * installed: {@value PostgresInstall#PACKAGE_HINT}; initdb or the server failed).
     */
    public static ScratchPostgres start() {
        PostgresInstall install = PostgresInstall.find(null);
        ClusterOwner owner = ClusterOwner.detect();
        CompletableFuture<ThrowawayCluster> started = new CompletableFuture<>();
        CountDownLatch closed = new CountDownLatch(1);
        Thread keeper = new Thread(() -> {
            try {
                started.complete(ThrowawayCluster.start(install, owner, null, 0, SETTINGS, null));
            } catch (Throwable e) {
                started.completeExceptionally(e);
                return;
            }
            try {
                closed.await(); // the postmaster's parent-death signal is tied to this thread: it lives until close
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "scratch-postgres");
        keeper.setDaemon(true); // the JVM's exit is not held up: ThrowawayCluster's shutdown hook stops the server
        keeper.start();
        try {
            return new ScratchPostgres(started.get(START_SECONDS, TimeUnit.SECONDS), closed);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IllegalStateException ise ? ise
                    : new IllegalStateException("PostgreSQL did not start: " + cause, cause);
        } catch (TimeoutException e) {
            throw new IllegalStateException("PostgreSQL did not start within " + START_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while PostgreSQL started");
        }
    }

    public int port() {
        return cluster.port();
    }

    /**
     * The JDBC URL of {@code database} as the superuser {@code postgres} (trusted on loopback, no password); a
     * statement that waits longer than a minute fails rather than hangs the build.
     */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + database + "?user=" + PostgresServer.SUPERUSER
                + "&connectTimeout=10&socketTimeout=60&ApplicationName=perflab-test";
    }

    /** Stops the server (fast shutdown) and deletes the cluster; safe to call twice. */
    @Override
    public void close() {
        try {
            cluster.stop();
        } finally {
            closed.countDown();
        }
    }
}

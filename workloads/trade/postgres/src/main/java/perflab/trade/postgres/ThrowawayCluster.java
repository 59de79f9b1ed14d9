package perflab.trade.postgres;

import perflab.core.sut.RunningServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One run's PostgreSQL cluster, from start to removal: restored from the cache into a private directory (or made by
 * initdb), served by a postmaster that is this JVM's child, and at the end stopped, then either published as the
 * cache's cluster (it gained databases worth keeping) or deleted. What the cache keeps are the SUT's populated
 * databases: those named like them ({@code --keep-databases}; the SUT gives a population that name only once it is
 * complete, so one cut short is never kept) or marked as templates ({@code datistemplate}); every other database
 * (the run's own, a population cut short) is dropped before a cluster is published.
 */
final class ThrowawayCluster implements RunningServer {
    private static final Duration LOCK_WAIT = Duration.ofSeconds(20);
    private static final Duration READY_WAIT = Duration.ofSeconds(30);
    private static final Duration FAST_SHUTDOWN = Duration.ofSeconds(10);
    private static final int PORT_ATTEMPTS = 3;
    private static final String HBA = """
            # perflab: a throwaway benchmark cluster, reachable from this machine only (listen_addresses=127.0.0.1)
            # TYPE  DATABASE  USER  ADDRESS        METHOD
            local   all       all                  trust
            host    all       all   127.0.0.1/32   trust
            """;

    private final PostgresInstall install;
    private final ClusterOwner owner;
    private final ClusterCache cache;
    private final Path runDir;
    private final Map<String, String> settings;
    /** Names of the databases worth keeping besides templates; null for none. */
    private final java.util.regex.Pattern keep;
    private Set<String> cachedTemplates = Set.of();
    /** The data directory is a copy of the cache's. */
    private boolean restored;
    /** The cached cluster would not start: this run's may replace it whatever it holds. */
    private boolean cacheBroken;
    private PostgresServer server;
    private boolean stopped;
    /** What its start did, for run.json ({@code processes.postgres.startup}). */
    private final Map<String, Object> facts = new java.util.LinkedHashMap<>();
    /** Open once the cluster has stopped: ends an outage drill's wait. */
    private final CountDownLatch ended = new CountDownLatch(1);

    private ThrowawayCluster(PostgresInstall install, ClusterOwner owner, ClusterCache cache, Path runDir,
                             Map<String, String> settings, java.util.regex.Pattern keep) {
        this.install = install;
        this.owner = owner;
        this.cache = cache;
        this.runDir = runDir;
        this.settings = settings;
        this.keep = keep;
    }

    /**
     * Lays out the run's directory, restores or creates the cluster and starts the server on {@code port} (0: a free
     * one); on failure everything started is stopped and removed, and the reason is one line.
     *
     * @param cacheParent the cache's parent directory, or null for none
     * @param keep        names of the databases the cache keeps besides templates, or null
     */
    static ThrowawayCluster start(PostgresInstall install, ClusterOwner owner, Path cacheParent, int port,
                                  Map<String, String> settings, java.util.regex.Pattern keep) throws Exception {
        ClusterCache cache = null;
        Path runDir;
        String hint;
        if (cacheParent != null) {
            cache = ClusterCache.in(cacheParent, install.major());
            int swept = cache.sweep();
            if (swept > 0) {
                say("removed %d directories left by runs that did not end cleanly", swept);
            }
            runDir = cache.newRunDir(owner);
            hint = "give --db-cache a directory the user " + owner.user() + " can reach";
        } else {
            runDir = Files.createTempDirectory("perflab-postgres-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            owner.own(runDir);
            hint = "the temporary directory " + runDir.getParent() + " must be open to the user " + owner.user();
        }
        ThrowawayCluster cluster = new ThrowawayCluster(install, owner, cache, runDir, settings, keep);
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::stop, "postgres-stop"));
        try {
            owner.checkCanWriteIn(runDir, hint);
            cluster.prepare();
            cluster.serve(port);
        } catch (Exception | Error e) {
            cluster.stop();
            throw e;
        }
        return cluster;
    }

    private Path data() {
        return runDir.resolve(ClusterCache.DATA);
    }

    /** The data directory: the cache's copy, or a new one. */
    private void prepare() throws IOException {
        long t0 = System.nanoTime();
        Properties cached = cache == null ? null : cache.restore(data(), owner, LOCK_WAIT);
        if (cached != null) {
            cachedTemplates = ClusterCache.templates(cached);
            restored = true;
            facts.put("cluster", "restored");
            facts.put("clusterSeconds", round(seconds(t0)));
            say("cluster restored from the cache %s in %.1f s (templates: %s)", cache.cluster(), seconds(t0),
                    cachedTemplates.isEmpty() ? "none" : String.join(", ", cachedTemplates));
            return;
        }
        initdb();
        facts.put("cluster", "initdb");
        facts.put("clusterSeconds", round(seconds(t0)));
        say("%s: initdb in %.1f s", cache == null ? "no cache (--cache-dir off)" : "no cluster cached in " + cache.dir(),
                seconds(t0));
    }

    private void initdb() throws IOException {
        List<String> command = new ArrayList<>(List.of(install.initdb().toString(), "-D", data().toString()));
        command.addAll(ClusterCache.INITDB_OPTIONS);
        Commands.run(owner.run(command), Duration.ofSeconds(120), "initdb");
        Files.writeString(data().resolve("pg_hba.conf"), HBA); // the file stays initdb's, and the owner's
    }

    /** Starts the server from the main thread (see {@link ClusterOwner}); a restored copy that will not start is replaced. */
    private void serve(int port) throws Exception {
        long t0 = System.nanoTime();
        try {
            server = startServer(port);
        } catch (IllegalStateException e) {
            if (!restored) {
                throw e;
            }
            say("the cached cluster would not start (%s): starting from a fresh one, which will replace it", e.getMessage());
            ClusterCache.delete(data());
            cachedTemplates = Set.of();
            cacheBroken = true;
            initdb();
            facts.put("cluster", "initdb");
            server = startServer(port);
        }
        facts.put("serverStartSeconds", round(seconds(t0)));
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            StringBuilder shown = new StringBuilder();
            for (String name : settings.keySet()) {
                try (ResultSet r = s.executeQuery("SELECT current_setting('" + name + "')")) {
                    r.next();
                    shown.append(shown.length() == 0 ? "" : ", ").append(name).append('=').append(r.getString(1));
                }
            }
            say("PostgreSQL %s listening on 127.0.0.1:%d (postmaster pid %d, started in %.1f s), data in %s%s", install.version(),
                    server.port(), server.pid(), seconds(t0), data(), shown.length() == 0 ? "" : "; " + shown);
        }
    }

    private PostgresServer startServer(int requested) throws Exception {
        for (int attempt = 1; ; attempt++) {
            int port = requested > 0 ? requested : perflab.core.process.LocalSockets.freePort();
            PostgresServer s = PostgresServer.start(install, owner, data(), runDir, port, settings);
            if (s.awaitReady(READY_WAIT)) {
                return s;
            }
            s.stop(Duration.ofSeconds(5));
            if (requested == 0 && attempt < PORT_ATTEMPTS && s.lostItsPort()) {
                continue; // another process took the free port before postgres bound it
            }
            throw new IllegalStateException("postgres exited before it was ready: " + s.exitReason());
        }
    }

    /** Waits for a session on {@code database}, looking every 200 ms; false when the cluster stopped first. */
    private boolean awaitFirstSession(String database) throws InterruptedException {
        while (!ended.await(200, TimeUnit.MILLISECONDS)) {
            try (Connection c = currentServer().connect("postgres");
                 PreparedStatement s = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE datname = ?")) {
                s.setString(1, database);
                try (ResultSet r = s.executeQuery()) {
                    if (r.next() && r.getLong(1) > 0) {
                        say("outage drill: the first session on %s at %s", database, Instant.now());
                        return true;
                    }
                }
            } catch (SQLException e) {
                // starting, or stopping: look again
            }
        }
        return false;
    }

    private synchronized PostgresServer currentServer() {
        return server;
    }

    @Override
    public synchronized int port() {
        return server.port();
    }

    /**
     * Runs {@code drill} on a thread of its own: the server stopped {@link OutageDrill#after()} from now, started
     * again on the same data and port {@link OutageDrill#length()} later. The thread then waits until the cluster
     * stops, because the restarted postmaster's parent-death signal is tied to the thread that started it
     * ({@link ClusterOwner}). Each step is said on stdout with its time, for the person reading the run's dip.
     */
    void drill(OutageDrill drill) {
        Thread thread = new Thread(() -> runDrill(drill), "postgres-outage-drill");
        thread.setDaemon(true);
        thread.start();
        String when = drill.watch() == null ? String.format(Locale.ROOT, "in %.1f s", drill.after().toMillis() / 1e3)
                : String.format(Locale.ROOT, "%.1f s after the first session on %s", drill.after().toMillis() / 1e3,
                drill.watch());
        say("outage drill planned: the server stops %s, for %.1f s", when, drill.length().toMillis() / 1e3);
    }

    private void runDrill(OutageDrill drill) {
        try {
            if (drill.watch() != null && !awaitFirstSession(drill.watch())) {
                return;
            }
            if (ended.await(drill.after().toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
            long away;
            synchronized (this) {
                if (stopped) {
                    return;
                }
                long t0 = System.nanoTime();
                boolean clean = server.stop(FAST_SHUTDOWN);
                away = System.nanoTime();
                say("outage drill: server %s in %.1f s at %s", clean ? "stopped (fast shutdown)" : "did not stop cleanly",
                        seconds(t0), Instant.now());
            }
            if (ended.await(drill.length().toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
            synchronized (this) {
                if (stopped) {
                    return;
                }
                server = startServer(server.port());
                say("outage drill: serving again at %s, %.1f s after it stopped (postmaster pid %d)",
                        Instant.now(), seconds(away), server.pid());
            }
            ended.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            say("outage drill: the server did not start again: %s", e.getMessage());
        }
    }

    /**
     * Stops the server and disposes of the cluster: published as the cache's if it gained templates and shut down
     * cleanly, else deleted. Safe to call twice (this class's shutdown hook and perflab's protocol both call it);
     * bounded by the fast shutdown's {@link #FAST_SHUTDOWN} and the cache lock's {@link #LOCK_WAIT}.
     */
    @Override
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            Set<String> kept = server != null && server.alive() && cache != null ? templatesWorthKeeping() : null;
            long t0 = System.nanoTime();
            boolean clean = server == null || server.stop(FAST_SHUTDOWN);
            if (server != null) {
                say("server %s in %.1f s", clean ? "stopped (fast shutdown)" : "did not stop cleanly", seconds(t0));
            }
            if (kept != null && clean && publish(kept)) {
                return;
            }
            ClusterCache.delete(runDir);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ClusterCache.delete(runDir);
        } finally {
            ended.countDown();
        }
    }

    /**
     * The databases worth keeping (templates, and those named like the SUT's populations), if the cluster has more
     * than the cache (and the rest dropped, ready to be kept); else null.
     */
    private Set<String> templatesWorthKeeping() {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            Set<String> templates = new TreeSet<>();
            List<String> others = new ArrayList<>();
            try (ResultSet r = s.executeQuery("SELECT datname, datistemplate FROM pg_database "
                    + "WHERE datname NOT IN ('postgres', 'template0', 'template1')")) {
                while (r.next()) {
                    String name = r.getString(1);
                    boolean worth = r.getBoolean(2) || keep != null && keep.matcher(name).matches();
                    (worth ? templates : others).add(name);
                }
            }
            if (!cacheBroken && !(templates.containsAll(cachedTemplates) && templates.size() > cachedTemplates.size())) {
                say("the cache already holds every template of this run (%s): the run's cluster is removed",
                        templates.isEmpty() ? "none" : String.join(", ", templates));
                return null;
            }
            for (String db : others) {
                s.execute("DROP DATABASE \"" + db.replace("\"", "\"\"") + "\" WITH (FORCE)");
            }
            return templates;
        } catch (SQLException e) {
            say("could not list the databases to keep (%s): the cache stays as it was", e.getMessage());
            return null;
        }
    }

    private boolean publish(Set<String> templates) {
        try {
            ClusterCache.Publication p = cache.publish(runDir, templates, install.version(), cacheBroken, LOCK_WAIT);
            switch (p) {
                case PUBLISHED -> say("this run's cluster is now the cache's %s (templates: %s)", cache.cluster(),
                        String.join(", ", templates));
                case NOTHING_NEW -> say("the cache already holds every template of this run: the run's cluster is removed");
                case CACHE_HAS_OTHERS -> say("the cache was meanwhile given templates this run lacks: it stays as it is");
                case BUSY -> say("the cache stayed locked for %d s: it stays as it is", LOCK_WAIT.toSeconds());
                default -> throw new IllegalStateException(p.toString());
            }
            return p == ClusterCache.Publication.PUBLISHED;
        } catch (IOException e) {
            say("could not publish the cluster (%s): the cache stays as it was", e.getMessage());
            return false;
        }
    }

    @Override
    public Map<String, Object> startupFacts() {
        return java.util.Collections.unmodifiableMap(facts);
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    static void say(String format, Object... args) {
        System.out.println("postgres: " + String.format(Locale.ROOT, format, args));
        System.out.flush();
    }
}

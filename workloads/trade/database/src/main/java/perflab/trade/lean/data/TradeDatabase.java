package perflab.trade.lean.data;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The pooled data source for a JDBC URL, with the studies' two database knobs: the pool size and the prepared
 * statement cache size. HikariCP has no statement cache of its own, so the cache is the driver's: H2's per-session
 * query cache, PostgreSQL's server-prepared statement cache.
 */
public final class TradeDatabase {
    private TradeDatabase() {
    }

    /** The embedded default: an in-memory H2 database that lives as long as the JVM (so the SUT populates it). */
    public static final String DEFAULT_URL = "jdbc:h2:mem:trade;DB_CLOSE_DELAY=-1";
    public static final int DEFAULT_POOL_SIZE = 20;
    public static final int DEFAULT_STATEMENT_CACHE = 64;
    /** How long H2 waits for a row lock; its 2 s default is too short for a hot quote on two busy CPUs. */
    static final int H2_LOCK_TIMEOUT_MS = 10_000;
    /**
     * How long a request waits for a connection before its page says the database is not answering (a 503).
     * HikariCP's 30 s default would hold every request of a short database outage until the database is back, so a
     * person (and perflab's error counts) would see a slow site instead of a failed one; 3 s is far above any wait for
     * a pooled connection on a working database here (pool waits are milliseconds at the p99).
     */
    static final long CONNECTION_WAIT_MS = 3_000;
    /**
     * H2's page cache, in KB: a quarter of the heap, at least H2's own 16 MB default. H2 keeps 16 MB whatever the
     * heap, and a run outgrows it within minutes (every trade adds an order and rewrites pages of the tables and
     * their indexes): then every page the cache has lost is read from the file and decoded again, and CPU per page
     * rose with the run's age (issue 36). A quarter leaves the rest to sessions and garbage (the live heap of a
     * 15-minute run stayed under 50 MB besides).
     */
    static long h2CacheKb(long maxHeapBytes) {
        return Math.max(16 * 1024, maxHeapBytes / 4 / 1024);
    }

    /** An H2 database in files at {@code path} (without the .mv.db suffix), kept between runs. */
    public static String h2File(Path path) {
        return "jdbc:h2:file:" + path.toAbsolutePath();
    }

    /**
     * A fixed-size pool (as an application server's): {@code poolSize} connections, each with a cache of {@code
     * statementCacheSize} prepared statements (0 = none).
     */
    public static HikariDataSource open(String jdbcUrl, int poolSize, int statementCacheSize) {
        if (poolSize < 1) {
            throw new IllegalArgumentException("database pool size must be 1 or more, was " + poolSize);
        }
        if (statementCacheSize < 0) {
            throw new IllegalArgumentException("statement cache size must be 0 or more, was " + statementCacheSize);
        }
        HikariConfig config = new HikariConfig();
        config.setPoolName("trade");
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        // every operation is a transaction: no per-borrow switch
        config.setAutoCommit(false);
        config.setConnectionTimeout(CONNECTION_WAIT_MS);
        String url = jdbcUrl == null ? "" : jdbcUrl.trim();
        if (url.startsWith("jdbc:h2:")) {
            url = h2Url(url, statementCacheSize, Runtime.getRuntime().maxMemory());
        } else if (url.startsWith("jdbc:postgresql:")) {
            config.addDataSourceProperty("preparedStatementCacheQueries", statementCacheSize);
        } else {
            throw new IllegalArgumentException("database URL '" + jdbcUrl
                    + "' is not supported; use jdbc:h2:... (embedded) or jdbc:postgresql://host/db");
        }
        config.setJdbcUrl(url);
        return new HikariDataSource(config);
    }

    /**
     * An H2 URL with the settings every trade server opens H2 with, unless the URL sets them: the query cache of
     * {@code statementCacheSize} statements per session, the lock timeout, and a page cache of a quarter of the
     * heap of the JVM H2 runs in ({@code maxHeapBytes}).
     */
    public static String h2Url(String url, int statementCacheSize, long maxHeapBytes) {
        String u = withH2Setting(url, "QUERY_CACHE_SIZE", statementCacheSize);
        u = withH2Setting(u, "LOCK_TIMEOUT", H2_LOCK_TIMEOUT_MS);
        return withH2Setting(u, "CACHE_SIZE", h2CacheKb(maxHeapBytes));
    }

    /** The URL with {@code name=value} added, unless the URL sets it already (the user's choice wins). */
    static String withH2Setting(String url, String name, long value) {
        if (url.toUpperCase(Locale.ROOT).contains(";" + name + "=")) {
            return url;
        }
        return url + ";" + name + "=" + value;
    }
}

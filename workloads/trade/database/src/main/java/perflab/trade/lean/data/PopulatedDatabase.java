package perflab.trade.lean.data;

import com.zaxxer.hikari.HikariDataSource;
import perflab.trade.lean.DatabaseFailure;
import perflab.trade.lean.TradeSettings;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A database in DayTrader's populated state at the start of every run, as the studies restored theirs before each
 * run: populated once per (database, users, quotes, schema) and restored from that copy afterwards, which takes a
 * fraction of the population's time.
 * <ul>
 *   <li>H2: the populated database file is kept in the cache directory; a run copies it into a private directory
 *       and opens the copy, so that no run changes what the next one starts from.</li>
 *   <li>PostgreSQL: the population is a template database on the same server ({@code <db>_u<users>_q<quotes>_<schema>});
 *       a run drops its database and creates it again from the template ({@code CREATE DATABASE ... TEMPLATE}, a file
 *       copy inside the server). The run's database is replaced: never point {@code --db-url} at data you keep.</li>
 * </ul>
 * The schema's hash is part of the name, so a changed schema.sql never restores an old population.
 */
public final class PopulatedDatabase {
    /** The population's random seed: every run of a size starts from the same data. */
    public static final long SEED = 20_021_001L;
    private static final Pattern POSTGRES_URL = Pattern.compile("(jdbc:postgresql://[^/?]+/)([A-Za-z_][A-Za-z0-9_]*)(\\?.*)?");

    /** How the run's database came to be. */
    public record Restore(String jdbcUrl, boolean populatedNow, Duration population, Duration restore, String from) {
        /** One line for the SUT's output. */
        public String describe() {
            return (populatedNow ? "populated in " + seconds(population) + " s into " + from + "; " : "")
                    + "restored from " + from + " in " + seconds(restore) + " s";
        }

        /** The same for run.json ({@code processes.sut.startup}): what happened, and how long each step took. */
        public java.util.Map<String, Object> facts() {
            java.util.Map<String, Object> facts = new java.util.LinkedHashMap<>();
            facts.put("database", populatedNow ? "populated" : "restored");
            facts.put("populationSeconds", Math.round(population.toNanos() / 1e7) / 100.0); // as describe() rounds
            facts.put("restoreSeconds", Math.round(restore.toNanos() / 1e7) / 100.0);
            facts.put("restoredFrom", from);
            return facts;
        }

        private static String seconds(Duration d) {
            return String.format(java.util.Locale.ROOT, "%.2f", d.toNanos() / 1e9);
        }
    }

    private PopulatedDatabase() {
    }

    /**
     * An embedded H2 database in {@code workDir} (created if missing) restored from {@code cacheDir}, populating
     * the cache first when it has no copy for this size. Returns the JDBC URL of the restored copy.
     */
    public static Restore h2(Path cacheDir, Path workDir, int users, int quotes) {
        try {
            Files.createDirectories(cacheDir);
            Files.createDirectories(workDir);
            String name = "trade-h2-" + org.h2.engine.Constants.VERSION_MAJOR + "." + org.h2.engine.Constants.VERSION_MINOR
                    + "-u" + users + "-q" + quotes + "-" + schemaHash();
            Path cached = cacheDir.resolve(name + ".mv.db");
            boolean populate = !Files.exists(cached);
            Duration population = Duration.ZERO;
            if (populate) {
                long start = System.nanoTime();
                Path building = Files.createTempDirectory(cacheDir, "building-");
                try {
                    Path base = building.resolve("trade");
                    populate(TradeDatabase.h2File(base), users, quotes);
                    try (Connection c = DriverManager.getConnection(TradeDatabase.h2File(base));
                         Statement s = c.createStatement()) {
                        s.execute("SHUTDOWN COMPACT"); // a compact file, closed: safe to copy
                    }
                    // published in one rename: a run that stops half-way leaves no half-populated cache
                    Files.move(building.resolve("trade.mv.db"), cached, StandardCopyOption.ATOMIC_MOVE);
                } finally {
                    deleteTree(building);
                }
                population = Duration.ofNanos(System.nanoTime() - start);
            }
            long start = System.nanoTime();
            Path copy = workDir.resolve("trade.mv.db");
            Files.copy(cached, copy, StandardCopyOption.REPLACE_EXISTING);
            Duration restore = Duration.ofNanos(System.nanoTime() - start);
            return new Restore(TradeDatabase.h2File(workDir.resolve("trade")), populate, population, restore,
                    cached.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("preparing the H2 database in " + workDir + " failed: " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new DatabaseFailure("preparing the H2 database failed: " + e.getMessage(), e);
        }
    }

    /**
     * The PostgreSQL database of {@code jdbcUrl} (jdbc:postgresql://host:port/db?...) created again from its
     * template, the template populated first when the server has none for this size.
     */
    public static Restore postgresql(String jdbcUrl, int users, int quotes) {
        Matcher m = POSTGRES_URL.matcher(jdbcUrl);
        if (!m.matches()) {
            throw new IllegalArgumentException("--db-url '" + jdbcUrl + "' must name a database: "
                    + "jdbc:postgresql://host:port/trade (letters, digits and _ in the name)");
        }
        String database = m.group(2).toLowerCase(java.util.Locale.ROOT);
        String params = m.group(3) == null ? "" : m.group(3);
        String template = database + "_u" + users + "_q" + quotes + "_" + schemaHash();
        String maintenance = m.group(1) + "postgres" + params;
        try (Connection admin = DriverManager.getConnection(maintenance); Statement s = admin.createStatement()) {
            admin.setAutoCommit(true); // CREATE DATABASE cannot run in a transaction
            boolean populate = !exists(admin, template);
            Duration population = Duration.ZERO;
            if (populate) {
                long start = System.nanoTime();
                String building = template + "_building";
                s.execute("DROP DATABASE IF EXISTS " + building + " WITH (FORCE)");
                s.execute("CREATE DATABASE " + building);
                populate(m.group(1) + building + params, users, quotes);
                // published in one rename: a run that stops half-way leaves no half-populated template
                s.execute("ALTER DATABASE " + building + " RENAME TO " + template);
                population = Duration.ofNanos(System.nanoTime() - start);
            }
            long start = System.nanoTime();
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + database + " TEMPLATE " + template);
            Duration restore = Duration.ofNanos(System.nanoTime() - start);
            return new Restore(jdbcUrl, populate, population, restore, "template database " + template);
        } catch (SQLException e) {
            throw new DatabaseFailure("preparing PostgreSQL database " + database + " failed: " + e.getMessage(), e);
        }
    }

    private static boolean exists(Connection admin, String database) throws SQLException {
        try (PreparedStatement q = admin.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            q.setString(1, database);
            try (ResultSet r = q.executeQuery()) {
                return r.next();
            }
        }
    }

    private static void populate(String jdbcUrl, int users, int quotes) {
        try (HikariDataSource pool = TradeDatabase.open(jdbcUrl, 4, 64)) {
            JdbcTradeService service = new JdbcTradeService(pool, TradeSettings.defaults());
            try {
                // perflab waits for the SUT's READY from its last progress line: a large population takes minutes
                service.populate(users, quotes, SEED, perflab.core.sut.SutBootstrap::progress);
            } finally {
                service.close();
            }
        }
    }

    /** Where populations are kept between runs: {@code $XDG_CACHE_HOME/perflab/trade}, or {@code ~/.cache/perflab/trade}. */
    public static Path defaultCache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("perflab").resolve("trade");
    }

    /** The first 8 hex digits of schema.sql's SHA-256. */
    static String schemaHash() {
        try (InputStream in = Schema.class.getResourceAsStream("schema.sql")) {
            if (in == null) {
                throw new IllegalStateException("schema.sql is missing from the classpath");
            }
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(in.readAllBytes());
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Removes a directory and everything in it (a run's private copy). */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

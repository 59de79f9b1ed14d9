package perflab.trade.lean.data;

import com.zaxxer.hikari.HikariDataSource;
import perflab.trade.lean.Account;
import perflab.trade.lean.DataAccess;
import perflab.trade.lean.OrderProcessing;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.TradeSettings;
import perflab.trade.lean.jpa.JpaTradeService;
import perflab.trade.postgres.ScratchPostgres;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fresh database with a service of either data access mode over it, gone when closed: in-memory H2, or, when the
 * system property {@value #POSTGRES} is set, a schema of its own in a PostgreSQL database, so that the same tests
 * check both modes on both databases. The property names that database's URL (e.g.
 * jdbc:postgresql://127.0.0.1:5432/trade?user=trade), or is {@value #THROWAWAY}: a PostgreSQL server of the test
 * JVM's own, started at the first fixture and gone at the JVM's end (mvn verify's postgresql execution). Its own
 * reads and writes ({@link #sql}, {@link #value}, {@link #snapshot}) are plain JDBC, whatever the mode under test.
 */
final class TradeFixture implements AutoCloseable {
    static final String POSTGRES = "perflab.trade.test.postgres";
    static final String THROWAWAY = "throwaway";
    static final String[] TABLES = {"account", "accountprofile", "holding", "orders", "quote", "keygen"};
    private static final Map<String, String> KEYS = Map.of("account", "accountid", "accountprofile", "userid",
            "holding", "holdingid", "orders", "orderid", "quote", "symbol", "keygen", "keyname");
    /** Columns whose values differ between two otherwise equal populations. */
    static final Set<String> UNREPEATABLE = Set.of("passwd", "creationdate", "lastlogin", "opendate",
            "completiondate", "purchasedate");
    private static final AtomicInteger DATABASES = new AtomicInteger();
    /** The server of {@value #THROWAWAY}, once started; or why it could not start (every later fixture fails alike). */
    private static ScratchPostgres throwaway;
    private static String throwawayFailure;

    final HikariDataSource dataSource;
    final TradeService service;
    private final String postgres;
    private final String postgresSchema;

    TradeFixture(DataAccess access, TradeSettings settings) {
        postgres = postgresUrl();
        int number = DATABASES.incrementAndGet();
        if (postgres == null) {
            postgresSchema = null;
            // no DB_CLOSE_DELAY: the database lives while the pool holds a connection, and goes with it
            dataSource = TradeDatabase.open("jdbc:h2:mem:trade-test-" + number, 8, 16);
        } else {
            postgresSchema = "trade_test_" + ProcessHandle.current().pid() + "_" + number;
            postgresStatement(postgres, "CREATE SCHEMA " + postgresSchema);
            dataSource = TradeDatabase.open(postgres + (postgres.contains("?") ? "&" : "?") + "currentSchema="
                    + postgresSchema, 8, 16);
        }
        this.service = access.open(dataSource, settings);
    }

    /**
     * The PostgreSQL database the tests run on, or null for H2: the property's URL, or the throwaway server's
     * (started now if it is the first).
     */
    static String postgresUrl() {
        String value = System.getProperty(POSTGRES, "").trim();
        if (value.isEmpty()) {
            return null;
        }
        if (!value.equals(THROWAWAY)) {
            return value;
        }
        synchronized (TradeFixture.class) {
            if (throwaway == null && throwawayFailure == null) {
                try {
                    throwaway = ScratchPostgres.start(); // stopped and deleted at the JVM's end
                } catch (IllegalStateException e) {
                    throwawayFailure = "-D" + POSTGRES + "=" + THROWAWAY + " needs a PostgreSQL server, which did not "
                            + "start: " + e.getMessage();
                }
            }
            if (throwawayFailure != null) {
                throw new IllegalStateException(throwawayFailure);
            }
            return throwaway.jdbcUrl("postgres");
        }
    }

    private static void postgresStatement(String url, String sql) {
        try (Connection c = java.sql.DriverManager.getConnection(url)) {
            c.createStatement().execute(sql);
        } catch (SQLException e) {
            throw new AssertionError(sql + ": " + e.getMessage(), e);
        }
    }

    static TradeFixture of(DataAccess access, OrderProcessing mode) {
        return new TradeFixture(access, TradeSettings.defaults().withOrderProcessing(mode));
    }

    static TradeFixture sync(DataAccess access) {
        return of(access, OrderProcessing.SYNC);
    }

    /** The service's asynchronous completions that failed (not part of TradeService: a test's and a monitor's). */
    long failedCompletions() {
        if (service instanceof JdbcTradeService jdbc) {
            return jdbc.failedCompletions();
        }
        return ((JpaTradeService) service).failedCompletions();
    }

    /** Quotes s:0..s:(n-1), each at the given price (open, low and high alike). */
    TradeFixture quotes(String... prices) {
        service.populate(0, prices.length, 1);
        for (int i = 0; i < prices.length; i++) {
            sql("UPDATE quote SET price = ?, open1 = ?, low = ?, high = ? WHERE symbol = ?",
                    new BigDecimal(prices[i]), new BigDecimal(prices[i]), new BigDecimal(prices[i]),
                    new BigDecimal(prices[i]), "s:" + i);
        }
        return this;
    }

    Account register(String userId, String balance) {
        return service.register(userId, "pw-" + userId, "Full " + userId, "1 Oak St.", userId + "@x.com",
                "1-2-3-4", new BigDecimal(balance));
    }

    BigDecimal balance(String userId) {
        return service.account(userId).orElseThrow().balance();
    }

    int sql(String sql, Object... params) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            int n = s.executeUpdate();
            c.commit();
            return n;
        } catch (SQLException e) {
            throw new AssertionError(sql + ": " + e.getMessage(), e);
        }
    }

    /** The first column of the first row, as text. */
    String value(String sql, Object... params) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            try (ResultSet r = s.executeQuery()) {
                String v = r.next() ? r.getString(1) : null;
                c.commit();
                return v;
            }
        } catch (SQLException e) {
            throw new AssertionError(sql + ": " + e.getMessage(), e);
        }
    }

    long count(String table) {
        return Long.parseLong(value("SELECT COUNT(*) FROM " + table));
    }

    /** Each table's row count and a digest of all its rows in key order, leaving out the named columns. */
    Map<String, String> snapshot(Set<String> leftOut) {
        Map<String, String> tables = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection()) {
            for (String table : TABLES) {
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                long rows = 0;
                try (PreparedStatement s = c.prepareStatement("SELECT * FROM " + table + " ORDER BY "
                        + KEYS.get(table)); ResultSet r = s.executeQuery()) {
                    ResultSetMetaData meta = r.getMetaData();
                    while (r.next()) {
                        rows++;
                        for (int i = 1; i <= meta.getColumnCount(); i++) {
                            if (!leftOut.contains(meta.getColumnName(i).toLowerCase(Locale.ROOT))) {
                                digest.update((text(r, i) + "\u0000").getBytes(StandardCharsets.UTF_8));
                            }
                        }
                    }
                }
                tables.put(table, rows + " rows " + HexFormat.of().formatHex(digest.digest()));
            }
            c.commit();
        } catch (SQLException | NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        return tables;
    }

    /**
     * A value as text that does not depend on the wire format: PostgreSQL's driver sends a statement's rows as text
     * until its fifth run and in binary after, and a DOUBLE reads "10" as text but "10.0" from binary.
     */
    private static String text(ResultSet r, int column) throws SQLException {
        switch (r.getMetaData().getColumnType(column)) {
            case Types.DOUBLE, Types.FLOAT, Types.REAL -> {
                double d = r.getDouble(column);
                return r.wasNull() ? "null" : Double.toString(d);
            }
            case Types.TIMESTAMP -> {
                return String.valueOf(r.getObject(column, LocalDateTime.class));
            }
            default -> {
                return r.getString(column);
            }
        }
    }

    Map<String, String> snapshot() {
        return snapshot(Set.of());
    }

    /** The snapshot without keygen: a refused request may have taken (and lost) ids, which moves a key block. */
    Map<String, String> dataSnapshot() {
        Map<String, String> tables = snapshot();
        tables.remove("keygen");
        return tables;
    }

    @Override
    public void close() {
        try {
            service.close();
        } finally {
            dataSource.close();
            if (postgresSchema != null) {
                postgresStatement(postgres, "DROP SCHEMA " + postgresSchema + " CASCADE");
            }
        }
    }
}

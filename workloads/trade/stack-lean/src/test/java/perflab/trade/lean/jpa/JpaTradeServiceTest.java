package perflab.trade.lean.jpa;

import com.zaxxer.hikari.HikariDataSource;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.Test;
import perflab.trade.lean.DataAccess;
import perflab.trade.lean.DatabaseFailure;
import perflab.trade.lean.Order;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.TradeSettings;
import perflab.trade.lean.data.Schema;
import perflab.trade.lean.data.TradeDatabase;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What only the JPA mode can get wrong: Hibernate's start against the schema, its output, and the row locks of its
 * read-modify-write trades. Its service behaviour is tested with the JDBC mode's, by the parameterised tests in
 * perflab.trade.lean.data.
 */
class JpaTradeServiceTest {
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static final Pattern LOCKED_TABLE = Pattern.compile("from (\\w+) \\w+ where .* for update");

    private static HikariDataSource database() {
        return TradeDatabase.open("jdbc:h2:mem:trade-jpa-" + DATABASES.incrementAndGet(), 4, 16);
    }

    @Test
    void startingChecksTheEntitiesAgainstTheSchemaAndChangesNothing() throws SQLException {
        try (HikariDataSource ds = database()) {
            Schema.create(ds);
            String before = schema(ds);
            try (TradeService service = DataAccess.JPA.open(ds, TradeSettings.defaults())) {
                service.populate(2, 3, 1);
                service.buy("uid:0", "s:0", 10);
            }
            assertEquals(before, schema(ds), "hbm2ddl changed the schema");
            assertFalse(before.contains("sequence "), "Hibernate made no sequence of its own: " + before);
        }
    }

    @Test
    void aSchemaThatDoesNotFitTheEntitiesIsRefusedAtStartAndLeftAlone() throws SQLException {
        try (HikariDataSource ds = database()) {
            Schema.create(ds);
            execute(ds, "ALTER TABLE quote DROP COLUMN change1");
            DatabaseFailure failure = assertThrows(DatabaseFailure.class,
                    () -> DataAccess.JPA.open(ds, TradeSettings.defaults()));
            assertTrue(failure.getMessage().contains("change1"), failure.getMessage());
            assertFalse(schema(ds).contains("quote.change1"), "validation must not repair the schema");
        }
    }

    @Test
    void hibernateLogsThroughSlf4jAndPrintsNothing() {
        assertTrue(org.jboss.logging.Logger.getLogger("org.hibernate").getClass().getSimpleName()
                .startsWith("Slf4j"), "JBoss Logging would write Hibernate's INFO lines to stderr through JUL");
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8);
        try (HikariDataSource ds = database()) {
            System.setOut(capture);
            System.setErr(capture);
            try (TradeService service = DataAccess.JPA.open(ds, TradeSettings.defaults())) {
                service.populate(2, 3, 1);
                Order buy = service.buy("uid:1", "s:1", 10);
                service.sell("uid:1", buy.holdingId());
                service.marketSummary();
            }
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        assertEquals("", printed.toString(StandardCharsets.UTF_8));
    }

    @Test
    void statisticsAndTheSecondLevelCacheAreOffAndWritesAreBatched() {
        try (HikariDataSource ds = database()) {
            Schema.create(ds);
            try (SessionFactory factory = TradePersistenceUnit.open(ds)) {
                assertFalse(factory.getStatistics().isStatisticsEnabled());
                assertFalse(factory.getSessionFactoryOptions().isSecondLevelCacheEnabled());
                assertEquals(TradePersistenceUnit.BATCH_SIZE, factory.getSessionFactoryOptions().getJdbcBatchSize());
            }
        }
    }

    @Test
    void aTradeLocksTheRowsItChangesInTheJdbcModesOrder() {
        try (HikariDataSource ds = database()) {
            StatementLog log = new StatementLog(ds);
            try (TradeService service = DataAccess.JPA.open(log, TradeSettings.defaults())) {
                service.populate(2, 3, 1);
                service.register("u1", "pw", "n", "a", "e", "c", new BigDecimal("10000.00"));
                service.buy("u1", "s:0", 1);
                service.sell("u1", service.buy("u1", "s:0", 1).holdingId());
                log.take();

                Order buy = service.buy("u1", "s:1", 10);
                assertEquals(List.of("account", "quote"), lockedTables(log.take()));
                service.sell("u1", buy.holdingId());
                assertEquals(List.of("holding", "account", "quote"), lockedTables(log.take()));
            }
        }
    }

    /** The tables read FOR UPDATE, in order, leaving out keygen (KeyBlocks, the same in both modes). */
    private static List<String> lockedTables(List<String> statements) {
        List<String> tables = new ArrayList<>();
        for (String sql : statements) {
            Matcher m = LOCKED_TABLE.matcher(sql);
            if (m.find() && !m.group(1).equals("keygen")) {
                tables.add(m.group(1));
            }
        }
        return tables;
    }

    /** Tables, columns with their types, indexes and sequences of the database's current schema, as text. */
    private static String schema(HikariDataSource ds) throws SQLException {
        TreeSet<String> lines = new TreeSet<>();
        try (Connection c = ds.getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            String schema = c.getSchema();
            try (ResultSet r = meta.getColumns(null, schema, "%", "%")) {
                while (r.next()) {
                    lines.add("column " + r.getString("TABLE_NAME").toLowerCase() + "."
                            + r.getString("COLUMN_NAME").toLowerCase() + " " + r.getString("TYPE_NAME") + " "
                            + r.getInt("COLUMN_SIZE") + " " + r.getString("IS_NULLABLE"));
                }
            }
            try (ResultSet tables = meta.getTables(null, schema, "%", null)) {
                while (tables.next()) {
                    String table = tables.getString("TABLE_NAME");
                    lines.add("table " + table.toLowerCase() + " " + tables.getString("TABLE_TYPE"));
                    try (ResultSet r = meta.getIndexInfo(null, schema, table, false, false)) {
                        while (r.next()) {
                            lines.add("index " + r.getString("INDEX_NAME") + " on " + table.toLowerCase() + "."
                                    + r.getString("COLUMN_NAME"));
                        }
                    }
                }
            }
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                    "SELECT sequence_name FROM information_schema.sequences")) {
                while (r.next()) {
                    lines.add("sequence " + r.getString(1));
                }
            }
            c.commit();
        }
        return String.join("\n", lines);
    }

    private static void execute(HikariDataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
            c.commit();
        }
    }
}

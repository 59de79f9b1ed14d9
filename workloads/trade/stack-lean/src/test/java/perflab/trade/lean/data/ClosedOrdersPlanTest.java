package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.DataAccess;
import perflab.trade.lean.Order;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every page asks for the user's closed orders (the alert at its top), so that query must read the few closed ones,
 * not the account's whole history: when it read every order of the account, CPU per page rose as a run piled
 * orders up on the users it drives (issue 36). H2 planned it so whenever a second index on the account existed; the
 * plan is read with each database's EXPLAIN ANALYZE (the rows it read), on H2 and on PostgreSQL.
 */
class ClosedOrdersPlanTest {
    private static final int USERS = 300;
    private static final String USER = "uid:7";
    private static final int HISTORY = 200;
    private static final Pattern H2_ORDERS_SCANNED =
            Pattern.compile("\"ORDERS\" \"O\"[\\s\\S]*?scanCount: (\\d+)");
    /** PostgreSQL's node that reads orders, its rows, and the lines under it up to the next node. */
    private static final Pattern PG_ORDERS_NODE =
            Pattern.compile("Scan[^\\n]* on orders o \\(actual[^\\n]*? rows=(\\d+)[^\\n]*\\n((?:(?![^\\n]*->)[^\\n]*\\n)*)");
    private static final Pattern PG_REMOVED = Pattern.compile("Rows Removed by (?:Filter|Index Recheck): (\\d+)");

    @Test
    void theClosedOrdersOfAUserWithALongHistoryAreFoundWithoutReadingIt() throws SQLException {
        try (TradeFixture f = TradeFixture.sync(DataAccess.JDBC)) {
            // a population: users with a few orders each, every one closed, and H2's statistics taken then (it
            // analyses a table by itself after 2,000 changed rows, which populating makes)
            f.service.populate(USERS, 20, 1);
            f.sql("ANALYZE");
            // then a run: one user's orders completed and alerted, page after page
            for (int i = 0; i < HISTORY; i++) {
                f.service.buy(USER, "s:" + (i % 20), 1);
                f.service.closedOrders(USER);
            }
            Order waiting = f.service.buy(USER, "s:0", 1);
            assertEquals(TradeRules.CLOSED, waiting.status());

            String plan = explainAnalyze(f, USER);
            int read = ordersRead(plan);
            // the one closed order (H2 counts the index entry after it too, that ends the range)
            assertTrue(read >= 1 && read <= 2, "the closed-order query read " + read
                    + " orders of a user with more than " + HISTORY + " to find its 1 closed one:\n" + plan);
            assertEquals(1, f.service.closedOrders(USER).size());
        }
    }

    /**
     * The rows of orders the query read, from the database's EXPLAIN ANALYZE: H2's scanCount; PostgreSQL's rows of
     * the orders node plus those its filter removed (none when the index finds the status too).
     */
    private static int ordersRead(String plan) {
        Matcher h2 = H2_ORDERS_SCANNED.matcher(plan);
        if (h2.find()) {
            return Integer.parseInt(h2.group(1));
        }
        Matcher pg = PG_ORDERS_NODE.matcher(plan);
        assertTrue(pg.find(), "no orders node in the plan:\n" + plan);
        Matcher removed = PG_REMOVED.matcher(pg.group(2));
        return Integer.parseInt(pg.group(1)) + (removed.find() ? Integer.parseInt(removed.group(1)) : 0);
    }

    private static String explainAnalyze(TradeFixture f, String userId) throws SQLException {
        try (Connection c = f.dataSource.getConnection()) {
            boolean postgres = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("postgres");
            if (postgres) {
                // a few hundred rows: PostgreSQL would read the whole table rather than an index, as it does not
                // on a population's size; this asks which index it uses, as it would there
                try (Statement s = c.createStatement()) {
                    s.execute("ANALYZE");
                    s.execute("SET LOCAL enable_seqscan = off");
                    s.execute("SET LOCAL enable_bitmapscan = off");
                }
            }
            return explain(c, (postgres ? "EXPLAIN (ANALYZE, COSTS OFF) " : "EXPLAIN ANALYZE ")
                    + OrderTable.CLOSED_OF_USER, userId);
        }
    }

    private static String explain(Connection c, String sql, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, userId);
            s.setString(2, TradeRules.CLOSED);
            StringBuilder plan = new StringBuilder();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    plan.append(r.getString(1)).append('\n');
                }
            }
            c.rollback();
            return plan.toString();
        }
    }
}

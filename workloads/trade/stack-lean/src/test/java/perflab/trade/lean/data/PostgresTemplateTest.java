package perflab.trade.lean.data;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import perflab.trade.lean.TradeSettings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PostgreSQL's way of restoring the population (PopulatedDatabase.postgresql): a template database populated once,
 * the run's database created again from it every run. Runs only in stack-lean's postgresql test execution (its pom
 * keeps it out of the H2 one), so neither execution reports it skipped.
 */
class PostgresTemplateTest {
    @Test
    void onPostgresqlTheFirstRunPopulatesATemplateDatabaseAndEveryRunRecreatesItsDatabaseFromIt() throws Exception {
        String server = TradeFixture.postgresUrl();
        assertNotNull(server, "runs in mvn verify's postgresql execution only (-D" + TradeFixture.POSTGRES + ")");
        String database = "trade_populated_" + ProcessHandle.current().pid();
        String template = database + "_u25_q40_" + PopulatedDatabase.schemaHash();
        String url = server.replaceFirst("^(jdbc:postgresql://[^/?]+/)[^?]*", "$1" + database);
        try {
            PopulatedDatabase.Restore first = PopulatedDatabase.postgresql(url, 25, 40);
            assertTrue(first.populatedNow());
            assertEquals("template database " + template, first.from());
            assertEquals(25, PopulatedDatabaseTest.accounts(url));

            // a run changes its database: the next run does not see it
            try (HikariDataSource pool = TradeDatabase.open(url, 2, 0)) {
                JdbcTradeService run = new JdbcTradeService(pool, TradeSettings.defaults());
                run.register("ru:extra", "pw", "n", "a", "e", "c", java.math.BigDecimal.TEN);
                run.close();
            }
            assertEquals(26, PopulatedDatabaseTest.accounts(url));
            PopulatedDatabase.Restore second = PopulatedDatabase.postgresql(url, 25, 40);
            assertFalse(second.populatedNow(), second.describe());
            assertEquals(25, PopulatedDatabaseTest.accounts(url));
        } finally {
            try (var c = java.sql.DriverManager.getConnection(url.replaceFirst("/" + database, "/postgres"));
                 var s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
                s.execute("DROP DATABASE IF EXISTS " + template + " WITH (FORCE)");
            }
        }
    }
}

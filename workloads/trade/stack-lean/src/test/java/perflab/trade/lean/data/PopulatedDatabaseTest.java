package perflab.trade.lean.data;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.trade.lean.TradeSettings;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every run starts from the populated state: populated once into the cache, then restored as a private copy. */
class PopulatedDatabaseTest {
    @TempDir
    Path dir;

    /** The accounts in the database at {@code url}. */
    static long accounts(String url) {
        try (HikariDataSource pool = TradeDatabase.open(url, 1, 0);
             var c = pool.getConnection(); var s = c.createStatement(); var r = s.executeQuery("SELECT COUNT(*) FROM account")) {
            r.next();
            return r.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theFirstRunPopulatesTheCacheAndLaterRunsRestoreAPrivateCopy() throws Exception {
        Path cache = dir.resolve("cache");
        PopulatedDatabase.Restore first = PopulatedDatabase.h2(cache, dir.resolve("run1"), 25, 40);
        assertTrue(first.populatedNow());
        assertEquals(25, accounts(first.jdbcUrl()));
        assertEquals(1, entries(cache), "one populated file in the cache, no building directory left");

        // a run changes its copy: the next run does not see it
        try (HikariDataSource pool = TradeDatabase.open(first.jdbcUrl(), 2, 0)) {
            JdbcTradeService run = new JdbcTradeService(pool, TradeSettings.defaults());
            run.register("ru:extra", "pw", "n", "a", "e", "c", java.math.BigDecimal.TEN);
            run.close();
        }
        PopulatedDatabase.Restore second = PopulatedDatabase.h2(cache, dir.resolve("run2"), 25, 40);
        assertFalse(second.populatedNow(), second.describe());
        assertTrue(second.describe().startsWith("restored from "), second.describe());
        assertEquals(25, accounts(second.jdbcUrl()));

        PopulatedDatabase.Restore other = PopulatedDatabase.h2(cache, dir.resolve("run3"), 26, 40);
        assertTrue(other.populatedNow(), "another size is populated on its own");
    }

    @Test
    void aPostgresqlUrlMustNameItsDatabase() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PopulatedDatabase.postgresql("jdbc:postgresql://127.0.0.1:5432/", 1, 2));
        assertTrue(e.getMessage().contains("must name a database"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> PopulatedDatabase.postgresql("jdbc:postgresql://127.0.0.1:5432/x;drop", 1, 2));
    }

    private static long entries(Path dir) throws java.io.IOException {
        try (var files = Files.list(dir)) {
            return files.count();
        }
    }
}

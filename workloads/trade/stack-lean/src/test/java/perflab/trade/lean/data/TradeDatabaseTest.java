package perflab.trade.lean.data;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.trade.lean.DataAccess;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TradeDatabaseTest {
    @Test
    void theStatementCacheKnobBecomesH2sQueryCacheAndTheUsersSettingWins() throws Exception {
        assertEquals("jdbc:h2:mem:x;QUERY_CACHE_SIZE=5", TradeDatabase.withH2Setting("jdbc:h2:mem:x",
                "QUERY_CACHE_SIZE", 5));
        assertEquals("jdbc:h2:mem:x;query_cache_size=9", TradeDatabase.withH2Setting(
                "jdbc:h2:mem:x;query_cache_size=9", "QUERY_CACHE_SIZE", 5));
        try (HikariDataSource ds = TradeDatabase.open("jdbc:h2:mem:knobs", 3, 77);
             Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                     + " WHERE SETTING_NAME = 'QUERY_CACHE_SIZE'")) {
            r.next();
            assertEquals("77", r.getString(1));
            assertEquals(3, ds.getMaximumPoolSize());
        }
    }

    @Test
    void h2sPageCacheIsAQuarterOfTheHeapAndNeverBelowH2sDefault(@TempDir Path dir) throws Exception {
        assertEquals(128 * 1024, TradeDatabase.h2CacheKb(512L << 20));
        assertEquals(16 * 1024, TradeDatabase.h2CacheKb(32L << 20));
        try (HikariDataSource ds = TradeDatabase.open(TradeDatabase.h2File(dir.resolve("db")), 1, 8);
             Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                     + " WHERE SETTING_NAME = 'info.CACHE_MAX_SIZE'")) {
            r.next();
            // a file database's (an in-memory one has no page cache); H2 reports it in MB
            assertEquals(TradeDatabase.h2CacheKb(Runtime.getRuntime().maxMemory()) / 1024,
                    Long.parseLong(r.getString(1)));
        }
    }

    @Test
    void badSettingsAreRefusedWithWhatToDo() {
        IllegalArgumentException url = assertThrows(IllegalArgumentException.class,
                () -> TradeDatabase.open("jdbc:mysql://db/trade", 4, 4));
        assertTrue(url.getMessage().contains("jdbc:postgresql:"), url.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TradeDatabase.open(TradeDatabase.DEFAULT_URL, 0, 4));
        assertThrows(IllegalArgumentException.class, () -> TradeDatabase.open(TradeDatabase.DEFAULT_URL, 4, -1));
    }

    @Test
    void theSchemaHasDayTradersTablesAndIndexesAndCanBeCreatedAgain() throws Exception {
        try (TradeFixture f = TradeFixture.sync(DataAccess.JDBC)) {
            Schema.create(f.dataSource);
            Set<String> indexes = new TreeSet<>();
            try (Connection c = f.dataSource.getConnection()) {
                DatabaseMetaData meta = c.getMetaData();
                for (String table : TradeFixture.TABLES) {
                    // H2 keeps unquoted names in upper case, PostgreSQL in lower case
                    String name = meta.storesUpperCaseIdentifiers() ? table.toUpperCase(Locale.ROOT) : table;
                    try (ResultSet r = meta.getIndexInfo(null, null, name, false, false)) {
                        while (r.next()) {
                            String index = r.getString("INDEX_NAME");
                            if (index != null && !index.toLowerCase(Locale.ROOT).startsWith("pk_")
                                    && !index.toLowerCase(Locale.ROOT).startsWith("primary_key")) {
                                indexes.add(index.toLowerCase(Locale.ROOT));
                            }
                        }
                    }
                }
                c.commit();
            }
            assertEquals(Set.of("account_userid", "closed_orders", "holding_accountid", "order_holdingid"), indexes);
            assertEquals(3, f.count("keygen"));
        }
    }
}

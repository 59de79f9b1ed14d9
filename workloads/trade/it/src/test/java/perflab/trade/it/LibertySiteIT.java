package perflab.trade.it;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.PerflabProcess;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.TradeSettings;
import perflab.trade.lean.data.JdbcTradeService;
import perflab.trade.lean.data.TradeDatabase;
import perflab.trade.postgres.ScratchPostgres;
import perflab.trade.site.SiteUnderTest;
import perflab.trade.site.TradeBrowserContract;
import perflab.trade.site.TradeSiteContract;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The liberty stack's pages pass the page contract every trade stack passes, as the lean stack's do in process:
 * {@link TradeSiteContract} (sessions, CSRF, refusals, escaping, hostile requests) and {@link TradeBrowserContract}
 * (a person in headless Chromium). One Liberty for both, started as a user would ({@code perflab serve trade --stack
 * liberty}) on a PostgreSQL of the test's own, whose books the test reads through a service of its own.
 */
class LibertySiteIT {
    @TempDir
    static Path work;

    private static ScratchPostgres postgres;
    private static PerflabProcess serve;
    private static HikariDataSource pool;
    private static Site site;

    record Site(URI base, TradeService trade, int users, int quotes) implements SiteUnderTest {
        @Override
        public void close() {
        }
    }

    @BeforeAll
    static void start() throws Exception {
        postgres = ScratchPostgres.start();
        PerflabProcess.shareCache(work); // one unpacking of Liberty for the module's tests
        String url = postgres.jdbcUrl("trade");
        serve = PerflabProcess.start(work, "serve", "trade", "--stack", "liberty", "--port", "0", "--db", "postgresql",
                "--db-url", url, "--users", "6", "--quotes", "30", "--heap", "256m", "--out", work.resolve("serve").toString());
        // a first start unpacks Liberty (in the module's shared cache) and restores the database
        String port = serve.awaitLine(Pattern.compile("at http://127\\.0\\.0\\.1:(\\d+)"), Duration.ofMinutes(5));
        pool = TradeDatabase.open(url, 2, 16);
        site = new Site(URI.create("http://127.0.0.1:" + port), new JdbcTradeService(pool, TradeSettings.defaults()), 6, 30);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (serve != null) {
                serve.signal("INT");
                serve.await(Duration.ofMinutes(2));
            }
        } finally {
            try {
                if (site != null) {
                    site.trade().close();
                }
                if (pool != null) {
                    pool.close();
                }
            } finally {
                if (postgres != null) {
                    postgres.close();
                }
                if (serve != null) {
                    serve.close();
                }
            }
        }
    }

    @Nested
    class Pages extends TradeSiteContract {
        @Override
        protected SiteUnderTest site() {
            return site;
        }
    }

    @Nested
    class InABrowser extends TradeBrowserContract {
        @Override
        protected SiteUnderTest site() {
            return site;
        }
    }
}

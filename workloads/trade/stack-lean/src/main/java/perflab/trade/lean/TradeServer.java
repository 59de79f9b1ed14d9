package perflab.trade.lean;

import com.zaxxer.hikari.HikariDataSource;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;
import perflab.soap.jetty.PlainErrorHandler;
import perflab.soap.jetty.SutJettyServer;
import perflab.trade.lean.data.PopulatedDatabase;
import perflab.trade.lean.data.TradeDatabase;
import perflab.trade.lean.web.TradeWeb;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The trade lean stack's SUT main: the brokerage's pages ({@link TradeWeb}) on Jetty 12 with Jetty's sessions, over
 * a {@link TradeService} on a pooled database that starts every run in the populated state
 * ({@link PopulatedDatabase}: H2 in a private directory, or PostgreSQL at {@code --db-url}). Settings:
 * {@link TradeServerSettings}; process protocol: {@link SutBootstrap}.
 */
public final class TradeServer {
    /** A logged-in session nobody uses expires after this long (a servlet container's usual 30 minutes). */
    static final int SESSION_TIMEOUT_SECONDS = 30 * 60;

    private TradeServer() {
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, TradeServerSettings.NAMES, TradeServer::start);
    }

    /** Starts the server; also the entry point for in-process tests. */
    public static StartedServer start(SutArgs args) throws Exception {
        return start(TradeServerSettings.from(args));
    }

    static StartedServer start(TradeServerSettings settings) throws Exception {
        Path workDir = Files.createTempDirectory("perflab-trade-");
        HikariDataSource pool = null;
        TradeService trade = null;
        SutJettyServer jetty;
        int port;
        PopulatedDatabase.Restore restore;
        try {
            restore = settings.db().equals("h2")
                    ? PopulatedDatabase.h2(settings.populationCache(), workDir, settings.users(), settings.quotes())
                    : PopulatedDatabase.postgresql(settings.dbUrl(), settings.users(), settings.quotes());
            System.out.println("trade database: " + restore.describe());
            pool = TradeDatabase.open(restore.jdbcUrl(), settings.dbPool(), settings.statementCache());
            trade = settings.dataAccess().open(pool, settings.trade());
            jetty = SutJettyServer.create(settings.server(), "sut");
            jetty.server().setErrorHandler(new PlainErrorHandler());
            port = jetty.start(TradeWeb.withSessions(trade, SESSION_TIMEOUT_SECONDS));
        } catch (Exception | Error e) {
            // a server that does not start leaves no pool, no threads and no copy of the database behind
            release(trade, pool, workDir);
            throw e;
        }
        TradeService service = trade;
        HikariDataSource connections = pool;
        return new StartedServer(port, null, () -> {
            try {
                jetty.stop();
            } finally {
                release(service, connections, workDir);
            }
        }).withStartupFacts(restore.facts());
    }

    /** Pending completions finished, the pool closed, the run's copy of the database removed; each may be null. */
    private static void release(TradeService trade, HikariDataSource pool, Path workDir) throws java.io.IOException {
        try {
            if (trade != null) {
                trade.close();
            }
        } finally {
            if (pool != null) {
                pool.close();
            }
            PopulatedDatabase.deleteTree(workDir);
        }
    }
}

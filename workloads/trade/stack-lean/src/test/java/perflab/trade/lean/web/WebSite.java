package perflab.trade.lean.web;

import com.zaxxer.hikari.HikariDataSource;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.TradeSettings;
import perflab.trade.lean.data.JdbcTradeService;
import perflab.trade.lean.data.TradeDatabase;
import perflab.trade.site.SiteUnderTest;

import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The brokerage's pages on a real Jetty on loopback, over a fresh in-memory H2 database populated with a few users
 * and quotes, for the web tests (the page contract every stack passes: {@link perflab.trade.site.TradeSiteContract}).
 * Gone when closed.
 */
final class WebSite implements SiteUnderTest {
    private static final AtomicInteger DATABASES = new AtomicInteger();

    final HikariDataSource dataSource;
    final TradeService trade;
    final Server server;
    final URI base;
    final int users;
    final int quotes;

    WebSite(int users, int quotes) throws Exception {
        this.users = users;
        this.quotes = quotes;
        dataSource = TradeDatabase.open("jdbc:h2:mem:trade-web-" + DATABASES.incrementAndGet(), 8, 16);
        trade = new JdbcTradeService(dataSource, TradeSettings.defaults());
        trade.populate(users, quotes, 7);
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(TradeWeb.withSessions(trade, 1800));
        server.start();
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    @Override
    public URI base() {
        return base;
    }

    @Override
    public TradeService trade() {
        return trade;
    }

    @Override
    public int users() {
        return users;
    }

    @Override
    public int quotes() {
        return quotes;
    }

    @Override
    public void close() throws Exception {
        try {
            server.stop();
        } finally {
            trade.close();
            dataSource.close();
        }
    }
}

package perflab.trade.liberty.web;

import jakarta.annotation.Resource;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import perflab.trade.lean.OrderProcessing;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.TradeSettings;
import perflab.trade.lean.data.JdbcTradeService;
import perflab.trade.lean.site.TradeSite;

import javax.sql.DataSource;
import java.util.Map;

/**
 * The application's start and stop: the brokerage's service over the container's data source ({@code jdbc/trade},
 * server.xml: Liberty's pool and statement cache, the studies' knobs), its settings from the server's environment
 * (servers/trade-liberty.yaml sets them from perflab's flags), and the site every request goes through.
 */
@WebListener
public final class TradeApplication implements ServletContextListener {
    static final String SITE = "perflab.trade.site";

    /**
     * Unshareable: every {@code getConnection} is a connection of its own, as from the lean stack's pool. A shared
     * one inside a request's local transaction could hand the key allocator the caller's own connection, whose
     * commit would then commit the caller's work half-done.
     */
    @Resource(name = "jdbc/tradeConnections", lookup = "jdbc/trade", shareable = false)
    private DataSource dataSource;

    private TradeService trade;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        TradeSettings settings = settings(System.getenv());
        trade = new JdbcTradeService(dataSource, settings);
        event.getServletContext().setAttribute(SITE, new TradeSite(trade));
        event.getServletContext().log("trade: started, " + settings);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (trade != null) {
            trade.close(); // pending asynchronous completions finish first
        }
    }

    /**
     * The application's settings from the environment the server file gives Liberty: {@code TRADE_ORDER_PROCESSING}
     * (sync, async), {@code TRADE_MARKET_SUMMARY_INTERVAL} (20000ms), {@code TRADE_CACHE} (quotes cached, 0 none).
     */
    static TradeSettings settings(Map<String, String> env) {
        return TradeSettings.defaults()
                .withOrderProcessing(OrderProcessing.parse(env.getOrDefault("TRADE_ORDER_PROCESSING", "sync")))
                .withMarketSummaryInterval(TradeSettings.interval("market-summary-interval",
                        env.getOrDefault("TRADE_MARKET_SUMMARY_INTERVAL", "20s")))
                .withQuoteCache(Integer.parseInt(env.getOrDefault("TRADE_CACHE", "2000").trim()));
    }
}

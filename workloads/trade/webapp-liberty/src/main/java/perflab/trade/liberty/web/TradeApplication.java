package perflab.trade.liberty.web;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.TradeSettings;
import perflab.trade.lean.data.ContainerResources;
import perflab.trade.lean.data.JdbcTradeService;
import perflab.trade.lean.data.Schema;
import perflab.trade.lean.jpa.JpaTradeService;
import perflab.trade.liberty.ejb.EntityWorkBean;
import perflab.trade.liberty.ejb.SessionBeanContexts;
import perflab.trade.lean.site.TradeSite;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import java.util.Locale;
import java.util.Map;

/**
 * The application's start and stop: the brokerage's service over the container's data source ({@code jdbc/trade},
 * server.xml: Liberty's pool and statement cache, the studies' knobs), its settings from the server's environment
 * (servers/trade-liberty.yaml sets them from perflab's flags), and the site every request goes through.
 */
@WebListener
public final class TradeApplication implements ServletContextListener {
    static final String SITE = "perflab.trade.site";
    /** Where trade-db.xml binds the quote cache's DistributedMap (the stack's PrepareDatabase writes it). */
    static final String QUOTE_MAP = "services/cache/tradeQuotes";

    /**
     * Unshareable: every {@code getConnection} is a connection of its own, as from the lean stack's pool. A shared
     * one inside a request's local transaction could hand the key allocator the caller's own connection, whose
     * commit would then commit the caller's work half-done.
     */
    @Resource(name = "jdbc/tradeConnections", lookup = "jdbc/trade", shareable = false)
    private DataSource dataSource;

    /** The JPA mode's session bean (--data-access jpa): each operation one container-managed transaction. */
    @EJB
    private EntityWorkBean entityWork;

    /**
     * Where async orders complete (server.xml: two at a time, a queue of 1,000, run by the request's own thread when
     * the queue is full, as the lean stack's threads): a managed executor, so that a completion runs with the
     * application's context and may call its session bean.
     */
    @Resource(lookup = "concurrent/tradeCompletions")
    private ManagedExecutorService completionExecutor;

    private TradeService trade;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        Map<String, String> env = System.getenv();
        TradeSettings settings = settings(env);
        boolean jpa = "jpa".equalsIgnoreCase(env.getOrDefault("TRADE_DATA_ACCESS", "jdbc").trim());
        boolean quoteMap = settings.quoteCacheEntries() > 0
                && "distributed-map".equals(env.getOrDefault("TRADE_QUOTE_CACHE", "distributed-map").trim());
        ContainerResources lent = new ContainerResources(new CompletionTasks(completionExecutor),
                quoteMap ? quoteMap() : null);
        if (jpa) {
            Schema.create(dataSource);
            trade = new JpaTradeService(dataSource, new SessionBeanContexts(entityWork), settings, lent);
        } else {
            trade = new JdbcTradeService(dataSource, settings, lent);
        }
        event.getServletContext().setAttribute(SITE, new TradeSite(trade));
        event.getServletContext().log("trade: started, data access " + (jpa ? "jpa" : "jdbc") + ", quotes cached in "
                + (settings.quoteCacheEntries() == 0 ? "nothing" : quoteMap ? "the distributed map" : "caffeine")
                + ", " + settings);
    }

    /**
     * The quote cache's DistributedMap (trade-db.xml declares it with the run's size). Liberty's DistributedMap is a
     * {@code java.util.Map}, so the application needs nothing of IBM's API to use it.
     */
    @SuppressWarnings("unchecked")
    private static Map<Object, Object> quoteMap() {
        try {
            return (Map<Object, Object>) new InitialContext().lookup(QUOTE_MAP);
        } catch (NamingException e) {
            throw new IllegalStateException("the quote cache's map " + QUOTE_MAP + " is not configured: " + e, e);
        }
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (trade != null) {
            trade.close(); // pending asynchronous completions finish first
        }
    }

    /**
     * The application's settings from the environment the server file gives Liberty: each of trade's settings as
     * {@code TRADE_} and its name in capitals ({@code TRADE_ORDER_PROCESSING}, {@code TRADE_MARKET_SUMMARY_INTERVAL},
     * {@code TRADE_CACHE}; {@code TRADE_DATA_ACCESS} is read above).
     */
    static TradeSettings settings(Map<String, String> env) {
        return TradeSettings.from(name -> env.get("TRADE_" + name.toUpperCase(Locale.ROOT).replace('-', '_')));
    }
}

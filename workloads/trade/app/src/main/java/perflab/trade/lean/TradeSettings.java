package perflab.trade.lean;

import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * The brokerage's application settings (the studies' knobs that are not the pool's or the JVM's).
 *
 * @param orderProcessing       when orders complete
 * @param marketSummaryInterval how long a computed market summary is served before it is computed again; zero
 *                              computes it on every call (DayTrader's default is 20 s)
 * @param completionThreads     threads completing orders in {@link OrderProcessing#ASYNC} mode
 * @param completionQueue       completions waiting at most; when full, the request thread completes its own order
 *                              (back pressure instead of loss)
 * @param quoteCacheEntries     quotes kept in the application's cache (the z study's dynamic cache: 2,000 by
 *                              default, 10,000 did best); 0 reads every quote from the database
 */
public record TradeSettings(OrderProcessing orderProcessing, Duration marketSummaryInterval, int completionThreads,
                            int completionQueue, int quoteCacheEntries) {
    public static final Duration DEFAULT_MARKET_SUMMARY_INTERVAL = Duration.ofSeconds(20);

    public TradeSettings {
        if (orderProcessing == null) {
            throw new IllegalArgumentException("order processing is missing; use sync or async");
        }
        if (marketSummaryInterval == null || marketSummaryInterval.isNegative()) {
            throw new IllegalArgumentException("market summary interval must be 0 (every call) or more, was "
                    + marketSummaryInterval);
        }
        if (completionThreads < 1) {
            throw new IllegalArgumentException("completion threads must be 1 or more, was " + completionThreads);
        }
        if (completionQueue < 1) {
            throw new IllegalArgumentException("completion queue must be 1 or more, was " + completionQueue);
        }
        if (quoteCacheEntries < 0) {
            throw new IllegalArgumentException("quote cache entries must be 0 (no cache) or more, was " + quoteCacheEntries);
        }
    }

    /** Synchronous orders, a 20 s market summary, two completion threads with a queue of 1,000, no quote cache. */
    public static TradeSettings defaults() {
        return new TradeSettings(OrderProcessing.SYNC, DEFAULT_MARKET_SUMMARY_INTERVAL, 2, 1000, 0);
    }

    public TradeSettings withOrderProcessing(OrderProcessing mode) {
        return new TradeSettings(mode, marketSummaryInterval, completionThreads, completionQueue, quoteCacheEntries);
    }

    public TradeSettings withMarketSummaryInterval(Duration interval) {
        return new TradeSettings(orderProcessing, interval, completionThreads, completionQueue, quoteCacheEntries);
    }

    public TradeSettings withQuoteCache(int entries) {
        return new TradeSettings(orderProcessing, marketSummaryInterval, completionThreads, completionQueue, entries);
    }

    /**
     * The settings named as trade's server settings, {@code order-processing}, {@code market-summary-interval} and
     * {@code cache}, each read by {@code setting} (null when not given: the default); the other fields keep their
     * defaults. Each stack reads them where it gets them: lean from its command line, liberty from its environment.
     */
    public static TradeSettings from(UnaryOperator<String> setting) {
        TradeSettings settings = defaults()
                .withOrderProcessing(OrderProcessing.parse(given(setting, "order-processing", "sync")))
                .withMarketSummaryInterval(interval("market-summary-interval",
                        given(setting, "market-summary-interval", "20s")));
        String cache = given(setting, "cache", "2000");
        try {
            return settings.withQuoteCache(Integer.parseInt(cache.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--cache must be a whole number of quotes, got '" + cache + "'");
        }
    }

    private static String given(UnaryOperator<String> setting, String name, String fallback) {
        String value = setting.apply(name);
        return value == null ? fallback : value;
    }

    /** "20000ms" as perflab passes it, or "20s" / "0" by hand. */
    public static Duration interval(String name, String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            }
            if (t.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            return Duration.ofSeconds(Long.parseLong(t));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a time such as 20s or 500ms, got '" + text + "'");
        }
    }
}

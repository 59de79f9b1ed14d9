package perflab.trade.lean.data;

import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Order;
import perflab.trade.lean.Quote;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The application's cache of quotes (the z study's dynamic cache, whose size it tuned: 2,000 entries by default,
 * 10,000 better for 10,000 symbols). A quote is dropped from it once a completed order has moved its price and
 * committed, so a page never shows a price older than the last completed trade. An unknown symbol is remembered as
 * unknown.
 *
 * <p>Both data access modes use it the same way: quotes read through {@link #get}, every order passed to
 * {@link #committed} after its transaction. Where the entries live is the stack's: the application's own memory
 * (Caffeine, the lean stack) or a map the container lends (Liberty's DistributedMap, the dynamic cache's heir).
 */
public interface QuoteCache {
    /** The quotes of {@code symbols} in their order, unknown ones left out; {@code load} reads some from the database. */
    List<Quote> get(List<String> symbols, Function<List<String>, List<Quote>> load);

    /** An order after its transaction committed: a closed one moved its stock's price, so its quote goes. */
    Order committed(Order order);

    /** After the quotes were replaced (a population). */
    void clear();

    /**
     * A cache of {@code entries} quotes (0: none, every quote from the database): in {@code containerMap} if one is
     * given (its size is the container's configuration), otherwise in the application's memory.
     */
    static QuoteCache of(int entries, Map<Object, Object> containerMap) {
        if (entries == 0) {
            return NoQuoteCache.INSTANCE;
        }
        return containerMap != null ? new SharedMapQuoteCache(containerMap) : new CaffeineQuoteCache(entries);
    }

    /** Whether {@code order} is a completed trade, whose quote's price has moved. */
    static boolean movedItsPrice(Order order) {
        return order.symbol() != null && TradeRules.CLOSED.equals(order.status());
    }
}

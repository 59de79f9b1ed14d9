package perflab.trade.lean.data;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Order;
import perflab.trade.lean.Quote;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The application's cache of quotes (the z study's dynamic cache, whose size it tuned: 2,000 entries by default,
 * 10,000 better for 10,000 symbols), bounded by entries and evicting the least useful (Caffeine's W-TinyLFU). A
 * quote is dropped from it once a completed order has moved its price and committed, so a page never shows a
 * price older than the last completed trade. An unknown symbol is remembered as unknown.
 *
 * <p>Both data access modes use it the same way: quotes read through {@link #get}, every order passed to
 * {@link #committed} after its transaction. Each symbol is loaded on its own: Caffeine makes a key's load and its
 * invalidation exclusive, so a load that read the old price cannot be stored after the invalidation that follows
 * the new one; a bulk load would lose that.
 */
public final class QuoteCache {
    /** null when the cache is off (0 entries): every quote comes from the database. */
    private final Cache<String, Optional<Quote>> cache;

    public QuoteCache(int entries) {
        this.cache = entries == 0 ? null : Caffeine.newBuilder().maximumSize(entries).build();
    }

    /** The quotes of {@code symbols} in their order, unknown ones left out; {@code load} reads some from the database. */
    public List<Quote> get(List<String> symbols, Function<List<String>, List<Quote>> load) {
        if (cache == null) {
            return load.apply(symbols);
        }
        List<Quote> quotes = new ArrayList<>(symbols.size());
        for (String symbol : symbols) {
            cache.get(symbol, s -> load.apply(List.of(s)).stream().findFirst()).ifPresent(quotes::add);
        }
        return quotes;
    }

    /** An order after its transaction committed: a closed one moved its stock's price, so its quote goes. */
    public Order committed(Order order) {
        if (cache != null && order.symbol() != null && TradeRules.CLOSED.equals(order.status())) {
            cache.invalidate(order.symbol());
        }
        return order;
    }

    /** After the quotes were replaced (a population). */
    public void clear() {
        if (cache != null) {
            cache.invalidateAll();
        }
    }
}

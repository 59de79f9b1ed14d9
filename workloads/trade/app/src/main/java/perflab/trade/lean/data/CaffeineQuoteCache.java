package perflab.trade.lean.data;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import perflab.trade.lean.Order;
import perflab.trade.lean.Quote;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The quote cache in the application's own memory, bounded by entries and evicting the least useful (Caffeine's
 * W-TinyLFU): the lean stack's. Each symbol is loaded on its own: Caffeine makes a key's load and its invalidation
 * exclusive, so a load that read the old price cannot be stored after the invalidation that follows the new one; a
 * bulk load would lose that.
 */
final class CaffeineQuoteCache implements QuoteCache {
    private final Cache<String, Optional<Quote>> cache;

    CaffeineQuoteCache(int entries) {
        this.cache = Caffeine.newBuilder().maximumSize(entries).build();
    }

    @Override
    public List<Quote> get(List<String> symbols, Function<List<String>, List<Quote>> load) {
        List<Quote> quotes = new ArrayList<>(symbols.size());
        for (String symbol : symbols) {
            cache.get(symbol, s -> load.apply(List.of(s)).stream().findFirst()).ifPresent(quotes::add);
        }
        return quotes;
    }

    @Override
    public Order committed(Order order) {
        if (QuoteCache.movedItsPrice(order)) {
            cache.invalidate(order.symbol());
        }
        return order;
    }

    @Override
    public void clear() {
        cache.invalidateAll();
    }
}

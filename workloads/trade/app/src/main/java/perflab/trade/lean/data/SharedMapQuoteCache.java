package perflab.trade.lean.data;

import perflab.trade.lean.Order;
import perflab.trade.lean.Quote;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

/**
 * The quote cache in a map the container lends and bounds (Liberty's DistributedMap, configured in server.xml with
 * the run's number of entries): the dynamic cache's heir, as the z study tuned it.
 *
 * <p>Such a map has no atomic load per key, so a load could read a price, lose the race to a trade that commits a
 * new one and drops the entry, and then store the old price for good. A generation per symbol prevents that: the
 * trade counts it up before it drops the entry, and a load that finds it changed after storing takes its entry back
 * out. Either the load sees the new generation, or the trade's removal comes after the load's store. The generations
 * are a fixed array indexed by the symbol's hash, so unknown symbols cannot grow it; two symbols sharing a slot only
 * cost an extra miss. What it cannot prevent (Caffeine's load per key can): between such a load's store and its
 * check, another page may read the old price once.
 *
 * <p>Nor does such a map always answer a key with that key's value. Liberty's (its dynamic cache, 26.0.0.3) finds an
 * entry without a lock and reads its value afterwards, while an eviction or removal may meanwhile return that entry
 * to a pool and reuse it for another key (Cache.getCacheEntry, freeLruEntry, CacheEntry.returnToPool): a get then
 * answers with another symbol's entry (about once in 200,000 gets from many threads on a full map, Liberty's classes
 * driven outside the server). So every entry names its symbol, and one that names another counts as a miss.
 */
final class SharedMapQuoteCache implements QuoteCache {
    private static final int SLOTS = 4096;

    /** Stored for a symbol that has no quote (the map may refuse null values), naming it as a quote does. */
    private record Absent(String symbol) {
    }

    private final Map<Object, Object> map;
    private final AtomicLongArray generations = new AtomicLongArray(SLOTS);

    SharedMapQuoteCache(Map<Object, Object> map) {
        this.map = map;
    }

    @Override
    public List<Quote> get(List<String> symbols, Function<List<String>, List<Quote>> load) {
        List<Quote> quotes = new ArrayList<>(symbols.size());
        for (String symbol : symbols) {
            Object entry = map.get(symbol);
            if (!isOf(symbol, entry)) {
                // not cached, or the map answered with another symbol's entry (see above)
                entry = loadAndStore(symbol, load);
            }
            if (entry instanceof Quote quote) {
                quotes.add(quote);
            }
        }
        return quotes;
    }

    private Object loadAndStore(String symbol, Function<List<String>, List<Quote>> load) {
        int slot = slot(symbol);
        long generation = generations.get(slot);
        List<Quote> loaded = load.apply(List.of(symbol));
        Object entry = loaded.isEmpty() ? new Absent(symbol) : loaded.get(0);
        map.put(symbol, entry);
        if (generations.get(slot) != generation) {
            // a trade of this symbol (or its slot's) committed while this load ran: what it read may be older
            map.remove(symbol);
        }
        return entry;
    }

    @Override
    public Order committed(Order order) {
        if (QuoteCache.movedItsPrice(order)) {
            generations.incrementAndGet(slot(order.symbol()));
            map.remove(order.symbol());
        }
        return order;
    }

    @Override
    public void clear() {
        for (int i = 0; i < SLOTS; i++) {
            generations.incrementAndGet(i);
        }
        map.clear();
    }

    /** Whether {@code entry}, which the map gave for {@code symbol}, is that symbol's quote or its absence. */
    private static boolean isOf(String symbol, Object entry) {
        if (entry instanceof Quote quote) {
            return symbol.equals(quote.symbol());
        }
        return entry instanceof Absent absent && symbol.equals(absent.symbol());
    }

    private static int slot(String symbol) {
        return symbol.hashCode() & (SLOTS - 1);
    }
}

package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Order;
import perflab.trade.lean.Quote;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The quote cache in a container's map (Liberty's DistributedMap), with a plain concurrent map standing in for it. */
class SharedMapQuoteCacheTest {
    private final Map<Object, Object> map = new ConcurrentHashMap<>();
    private final QuoteCache cache = QuoteCache.of(100, map);
    private final List<String> loads = new ArrayList<>();

    private static Quote quote(String symbol, String price) {
        return new Quote(symbol, "company", new BigDecimal(price), BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ONE, 0, 0);
    }

    private static Order trade(String symbol, String status) {
        return new Order(1, 1, TradeRules.BUY, status, Instant.EPOCH, Instant.EPOCH, 1, BigDecimal.ONE,
                TradeRules.ORDER_FEE, symbol, 1);
    }

    private Function<List<String>, List<Quote>> database(String price) {
        return symbols -> {
            loads.addAll(symbols);
            return symbols.stream().filter(s -> s.startsWith("s:")).map(s -> quote(s, price)).toList();
        };
    }

    @Test
    void aQuoteIsLoadedOnceAndThenServedFromTheMapAnUnknownSymbolToo() {
        assertEquals(List.of(quote("s:1", "10.00")), cache.get(List.of("s:1", "nope"), database("10.00")));
        assertEquals(List.of(quote("s:1", "10.00")), cache.get(List.of("s:1", "nope"), database("99.00")));
        assertEquals(List.of("s:1", "nope"), loads, "one load per symbol, the unknown one remembered as unknown");
        assertTrue(map.containsKey("s:1") && map.containsKey("nope"));
    }

    @Test
    void aCompletedTradeDropsItsQuoteAndAnOpenOrderDoesNot() {
        cache.get(List.of("s:1"), database("10.00"));
        assertEquals("s:1", cache.committed(trade("s:1", TradeRules.OPEN)).symbol(), "handed back for the page");
        assertTrue(map.containsKey("s:1"), "an open order has not moved the price yet");
        cache.committed(trade("s:1", TradeRules.CLOSED));
        assertFalse(map.containsKey("s:1"));
        assertEquals(List.of(quote("s:1", "11.00")), cache.get(List.of("s:1"), database("11.00")));
    }

    @Test
    void aLoadThatRacedATradeDoesNotKeepItsOldPrice() {
        // the load reads the old price, then the trade commits its new price and drops the entry, then the load stores
        List<Quote> shown = cache.get(List.of("s:2"), symbols -> {
            List<Quote> old = List.of(quote("s:2", "10.00"));
            cache.committed(trade("s:2", TradeRules.CLOSED));
            return old;
        });
        assertEquals(List.of(quote("s:2", "10.00")), shown, "the request shows what it read");
        assertFalse(map.containsKey("s:2"), "but the old price is not kept for the next page");
        assertEquals(List.of(quote("s:2", "12.00")), cache.get(List.of("s:2"), database("12.00")));
    }

    @Test
    void clearingForgetsEveryQuoteAndNoCacheAtAllLoadsEveryTime() {
        cache.get(List.of("s:1", "s:2"), database("10.00"));
        cache.clear();
        assertTrue(map.isEmpty());
        QuoteCache none = QuoteCache.of(0, map);
        none.get(List.of("s:3"), database("10.00"));
        none.get(List.of("s:3"), database("10.00"));
        assertEquals(List.of("s:1", "s:2", "s:3", "s:3"), loads);
        assertTrue(map.isEmpty(), "--cache 0 leaves the container's map alone");
    }

    /**
     * Liberty's DistributedMap (its dynamic cache, Open Liberty 26.0.0.3) as far as the quote cache is concerned: a
     * bounded map whose entries are holder objects that an eviction recycles for the key being stored (dynacache's
     * pooled CacheEntry: Cache.freeLruEntry, CacheEntry.returnToPool, then CacheEntryPool.allocate), and whose get
     * finds the holder without a lock and reads its value afterwards (Cache.getCacheEntry then CacheEntry.getValue,
     * no check that the entry still holds the key asked for). A get that loses that race returns another key's value.
     */
    private static final class RecyclingMap extends AbstractMap<Object, Object> {
        private static final class Holder {
            volatile Object key;
            volatile Object value;
        }

        private final Map<Object, Holder> table = new ConcurrentHashMap<>();
        private final ArrayDeque<Holder> lru = new ArrayDeque<>(); // guarded by this
        private final int capacity;
        /** Runs between a get's lookup and its read of the value: the window the recycling races with. */
        volatile Runnable betweenLookupAndRead = () -> { };

        RecyclingMap(int capacity) {
            this.capacity = capacity;
        }

        @Override
        public Object get(Object key) {
            Holder holder = table.get(key);
            if (holder == null) {
                return null;
            }
            betweenLookupAndRead.run();
            return holder.value;
        }

        @Override
        public synchronized Object put(Object key, Object value) {
            Holder holder = table.get(key);
            if (holder == null) {
                if (table.size() >= capacity) {
                    holder = lru.removeFirst(); // the least recently stored, evicted and its holder reused
                    table.remove(holder.key);
                } else {
                    holder = new Holder();
                }
                holder.key = key;
                holder.value = value;
                table.put(key, holder);
            } else {
                holder.value = value;
                lru.remove(holder);
            }
            lru.addLast(holder);
            return null;
        }

        @Override
        public synchronized Object remove(Object key) {
            Holder holder = table.remove(key);
            if (holder != null) {
                lru.remove(holder);
                holder.value = null;
            }
            return null;
        }

        @Override
        public synchronized void clear() {
            table.clear();
            lru.clear();
        }

        @Override
        public boolean containsKey(Object key) {
            return table.containsKey(key);
        }

        @Override
        public Set<Entry<Object, Object>> entrySet() {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void aValueTheMapHandsOutForAnotherSymbolIsNotShown() {
        RecyclingMap recycling = new RecyclingMap(1);
        QuoteCache shared = QuoteCache.of(100, recycling);
        shared.get(List.of("s:1"), database("10.00"));
        // the page asking for s:1 finds its entry; before it reads it, another page stores s:2, which evicts s:1 and
        // reuses its entry: Liberty's map then answers s:1 with s:2's quote
        recycling.betweenLookupAndRead = () -> {
            recycling.betweenLookupAndRead = () -> { };
            shared.get(List.of("s:2"), database("20.00"));
        };
        assertEquals(List.of(quote("s:1", "10.00")), shared.get(List.of("s:1"), database("10.00")),
                "s:1's quote, read again, not s:2's");
        // the same with an unknown symbol's entry: s:1 is not taken for unknown
        recycling.betweenLookupAndRead = () -> {
            recycling.betweenLookupAndRead = () -> { };
            shared.get(List.of("nope"), database("20.00"));
        };
        assertEquals(List.of(quote("s:1", "11.00")), shared.get(List.of("s:1"), database("11.00")));
    }

    /**
     * Pages of random symbols read through the cache on four threads while trades drop quotes, over {@code map};
     * the first page that misses a symbol it asked for or shows one it did not, or null if every page was right.
     */
    private static String firstWrongPage(Map<Object, Object> map) throws InterruptedException {
        int symbols = 64;
        QuoteCache shared = QuoteCache.of(100, map);
        Function<List<String>, List<Quote>> database = some -> some.stream().map(s -> quote(s, "10.00")).toList();
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            boolean trader = t == 0;
            threads.add(new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int page = 0; page < 20_000 && wrong.isEmpty(); page++) {
                    if (trader && page % 2 == 0) {
                        shared.committed(trade("s:" + random.nextInt(symbols), TradeRules.CLOSED));
                        continue;
                    }
                    List<String> asked = new ArrayList<>();
                    for (int n = 1 + random.nextInt(5); asked.size() < n; ) {
                        String symbol = "s:" + random.nextInt(symbols);
                        if (!asked.contains(symbol)) {
                            asked.add(symbol);
                        }
                    }
                    List<String> shown = shared.get(asked, database).stream().map(Quote::symbol).toList();
                    if (!shown.equals(asked)) {
                        wrong.add("asked " + asked + ", shown " + shown);
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        return wrong.peek();
    }

    @Test
    void concurrentPagesShowEveryQuoteTheyAskForAndNoOther() throws InterruptedException {
        assertNull(firstWrongPage(new ConcurrentHashMap<>()), "over a map that answers each key with its own value");
        RecyclingMap recycling = new RecyclingMap(16);
        recycling.betweenLookupAndRead = Thread::yield; // widens the window, as a busy server's scheduling does
        assertNull(firstWrongPage(recycling), "over a map that may answer a key with another key's value");
    }
}

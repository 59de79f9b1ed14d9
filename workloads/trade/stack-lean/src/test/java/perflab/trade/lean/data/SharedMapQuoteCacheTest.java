package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Order;
import perflab.trade.lean.Quote;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}

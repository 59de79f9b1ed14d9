package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import perflab.trade.lean.DataAccess;
import perflab.trade.lean.OrderProcessing;
import perflab.trade.lean.Quote;
import perflab.trade.lean.TradeSettings;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --cache N: quotes served from memory, and never older than the last completed trade of their stock; both modes. */
@ParameterizedClass
@EnumSource(DataAccess.class)
class QuoteCacheTest {
    private final DataAccess access;

    QuoteCacheTest(DataAccess access) {
        this.access = access;
    }

    private TradeFixture fixture(OrderProcessing mode, int entries) {
        return new TradeFixture(access, TradeSettings.defaults().withOrderProcessing(mode).withQuoteCache(entries))
                .quotes("100.00", "200.00", "300.00");
    }

    private static BigDecimal shown(TradeFixture f, String symbol) {
        return f.service.quotes(List.of(symbol)).get(0).price();
    }

    private static BigDecimal stored(TradeFixture f, String symbol) {
        return new BigDecimal(f.value("SELECT price FROM quote WHERE symbol = ?", symbol));
    }

    @Test
    void aCachedQuoteIsServedFromMemory() {
        try (TradeFixture f = fixture(OrderProcessing.SYNC, 100)) {
            assertEquals(new BigDecimal("200.00"), shown(f, "s:1"));
            f.sql("UPDATE quote SET price = ? WHERE symbol = ?", new BigDecimal("1.00"), "s:1"); // behind its back
            assertEquals(new BigDecimal("200.00"), shown(f, "s:1"), "the cached quote");
        }
        try (TradeFixture f = fixture(OrderProcessing.SYNC, 0)) {
            shown(f, "s:1");
            f.sql("UPDATE quote SET price = ? WHERE symbol = ?", new BigDecimal("1.00"), "s:1");
            assertEquals(new BigDecimal("1.00"), shown(f, "s:1"), "no cache: the database's price");
        }
    }

    @Test
    void aCompletedOrderDropsItsStocksQuoteSoTheNewPriceShows() {
        try (TradeFixture f = fixture(OrderProcessing.SYNC, 100)) {
            f.register("uid:0", "100000.00");
            List<Quote> before = f.service.quotes(List.of("s:0", "s:1", "s:2"));
            for (int i = 0; i < 5; i++) {
                f.service.buy("uid:0", "s:1", 10);
                assertEquals(stored(f, "s:1"), shown(f, "s:1"), "after buy " + i);
            }
            int holding = f.service.holdings("uid:0").get(0).holdingId();
            f.service.sell("uid:0", holding);
            assertEquals(stored(f, "s:1"), shown(f, "s:1"), "after the sell");
            assertEquals(before.get(0), f.service.quotes(List.of("s:0")).get(0), "another stock's quote is unchanged");
        }
    }

    @Test
    void anAsynchronousCompletionDropsTheQuoteToo() {
        try (TradeFixture f = fixture(OrderProcessing.ASYNC, 100)) {
            f.register("uid:0", "100000.00");
            shown(f, "s:2");
            f.service.buy("uid:0", "s:2", 10);
            assertTrue(f.service.awaitCompletions(Duration.ofSeconds(30)));
            assertEquals(stored(f, "s:2"), shown(f, "s:2"));
        }
    }

    @Test
    void unknownSymbolsAreLeftOutAndTheOrderIsKept() {
        try (TradeFixture f = fixture(OrderProcessing.SYNC, 2)) {
            List<Quote> quotes = f.service.quotes(List.of("s:2", "zz", "s:0", "s:1"));
            assertEquals(List.of("s:2", "s:0", "s:1"), quotes.stream().map(Quote::symbol).toList());
        }
    }
}

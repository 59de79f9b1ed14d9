package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import perflab.trade.lean.MarketSummary;
import perflab.trade.lean.OrderProcessing;
import perflab.trade.lean.Quote;
import perflab.trade.lean.TradeSettings;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

class MarketSummaryTest {
    private static TradeFixture withInterval(Duration interval) {
        return new TradeFixture(TradeSettings.defaults().withOrderProcessing(OrderProcessing.SYNC)
                .withMarketSummaryInterval(interval));
    }

    @Test
    void theIndexIsTheMeanPriceAndTheMoversAreSortedByChange() {
        try (TradeFixture f = withInterval(Duration.ZERO).quotes("10.00", "20.00", "30.00", "40.00", "50.00",
                "60.00", "70.00")) {
            for (int i = 0; i < 7; i++) {
                // s:i moves by (i - 3) dollars: s:6 gains most, s:0 loses most
                f.sql("UPDATE quote SET price = price + ?, change1 = ?, volume = ? WHERE symbol = ?", i - 3, i - 3.0,
                        i * 10.0, "s:" + i);
            }
            MarketSummary m = f.service.marketSummary();
            assertEquals(new BigDecimal("40.00"), m.tsia());
            assertEquals(new BigDecimal("40.00"), m.openTsia());
            assertEquals(210.0, m.volume());
            assertEquals(List.of("s:6", "s:5", "s:4", "s:3", "s:2"), symbols(m.topGainers()));
            assertEquals(List.of("s:0", "s:1", "s:2", "s:3", "s:4"), symbols(m.topLosers()));
            assertEquals(new BigDecimal("0.00"), m.gainPercent());
        }
    }

    @Test
    void aZeroIntervalComputesEveryCall() {
        try (TradeFixture f = withInterval(Duration.ZERO).quotes("10.00", "30.00")) {
            assertEquals(new BigDecimal("20.00"), f.service.marketSummary().tsia());
            f.sql("UPDATE quote SET price = 50.00 WHERE symbol = 's:1'");
            MarketSummary m = f.service.marketSummary();
            assertEquals(new BigDecimal("30.00"), m.tsia());
            assertEquals(new BigDecimal("50.00"), m.gainPercent());
        }
    }

    @Test
    void aTwentySecondIntervalServesTheSameCopy() {
        try (TradeFixture f = withInterval(Duration.ofSeconds(20)).quotes("10.00", "30.00")) {
            MarketSummary first = f.service.marketSummary();
            f.sql("UPDATE quote SET price = 50.00 WHERE symbol = 's:1'");
            assertSame(first, f.service.marketSummary());
            f.service.populate(0, 3, 5);
            assertNotSame(first, f.service.marketSummary(), "a population replaces the copy");
        }
    }

    @Test
    void whenDueOneThreadComputesWhileTheOthersGetTheOldCopy() throws Exception {
        AtomicLong now = new AtomicLong();
        AtomicInteger computed = new AtomicInteger();
        CountDownLatch computing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        MarketSummaryCache cache = new MarketSummaryCache(Duration.ofSeconds(20), () -> {
            if (computed.incrementAndGet() == 2) {
                computing.countDown();
                await(release);
            }
            return summary(computed.get());
        }, now::get);
        MarketSummary first = cache.get();
        now.addAndGet(Duration.ofSeconds(19).toNanos());
        assertSame(first, cache.get());
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<MarketSummary> recomputed = pool.submit(cache::get);
            computing.await(10, TimeUnit.SECONDS);
            assertSame(first, cache.get(), "not blocked by the thread computing");
            release.countDown();
            assertEquals(2, recomputed.get(10, TimeUnit.SECONDS).volume());
            assertEquals(2, cache.get().volume());
            assertEquals(2, computed.get());
        } finally {
            pool.shutdown();
        }
    }

    private static MarketSummary summary(double volume) {
        return new MarketSummary(BigDecimal.ONE, BigDecimal.ONE, volume, List.of(), List.of(), Instant.now());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<String> symbols(List<Quote> quotes) {
        return quotes.stream().map(Quote::symbol).toList();
    }
}

package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import perflab.trade.lean.MarketSummary;

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
import static org.junit.jupiter.api.Assertions.assertSame;

/** The cache alone, on a clock of its own: the same for both data access modes, so not run for each. */
class MarketSummaryCacheTest {
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
}

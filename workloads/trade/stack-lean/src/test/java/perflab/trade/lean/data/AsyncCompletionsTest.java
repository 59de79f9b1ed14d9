package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Order;
import perflab.trade.lean.OrderProcessing;
import perflab.trade.lean.TradeSettings;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AsyncCompletionsTest {
    private static final TradeSettings ASYNC = TradeSettings.defaults().withOrderProcessing(OrderProcessing.ASYNC);

    private static Order order(int id, String status) {
        return new Order(id, 1, TradeRules.BUY, status, Instant.EPOCH, null, 1, BigDecimal.ONE, TradeRules.ORDER_FEE,
                "s:0", null);
    }

    @Test
    void aGivenExecutorRunsTheCompletionsAndIsLeftRunningAfterClose() throws Exception {
        ExecutorService container = Executors.newSingleThreadExecutor(r -> new Thread(r, "container-thread"));
        try {
            List<String> ranOn = new CopyOnWriteArrayList<>();
            CountDownLatch release = new CountDownLatch(1);
            AsyncCompletions completions = AsyncCompletions.of(ASYNC, container, order -> {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ranOn.add(Thread.currentThread().getName() + ":" + order.orderId());
            });
            completions.submitIfOpen(order(1, TradeRules.OPEN));
            completions.submitIfOpen(order(2, TradeRules.CLOSED));
            assertFalse(completions.awaitIdle(Duration.ofMillis(50)), "the completion waits on the latch");
            release.countDown();
            assertTrue(completions.awaitIdle(Duration.ofSeconds(30)));
            assertEquals(List.of("container-thread:1"), ranOn, "only the open order, on the container's thread");
            completions.close();
            assertFalse(container.isShutdown(), "the container's executor is the container's to stop");
        } finally {
            container.shutdownNow();
        }
    }

    @Test
    void aFailedCompletionIsCountedAndStillFinishes() {
        Runnable[] task = new Runnable[1];
        AsyncCompletions completions = AsyncCompletions.of(ASYNC, r -> task[0] = r, order -> {
            throw new IllegalStateException("the database is away");
        });
        completions.submitIfOpen(order(3, TradeRules.OPEN));
        assertFalse(completions.awaitIdle(Duration.ZERO), "submitted, not yet run");
        task[0].run();
        assertEquals(1, completions.failures());
        assertTrue(completions.awaitIdle(Duration.ZERO));
    }

    @Test
    void anOrderTheExecutorRefusesIsCompletedByItsCaller() {
        List<String> ranOn = new CopyOnWriteArrayList<>();
        AsyncCompletions completions = AsyncCompletions.of(ASYNC, r -> {
            throw new java.util.concurrent.RejectedExecutionException("the application is stopping");
        }, order -> ranOn.add(Thread.currentThread().getName()));
        completions.submitIfOpen(order(5, TradeRules.OPEN));
        assertEquals(List.of(Thread.currentThread().getName()), ranOn);
        assertTrue(completions.awaitIdle(Duration.ZERO), "counted as finished");
    }

    @Test
    void aCompletionTheExecutorDropsIsAbandonedOnceAndWaitsForNothing() {
        Runnable[] task = new Runnable[1];
        List<Integer> completed = new CopyOnWriteArrayList<>();
        AsyncCompletions completions = AsyncCompletions.of(ASYNC, r -> task[0] = r,
                order -> completed.add(order.orderId()));
        completions.submitIfOpen(order(6, TradeRules.OPEN));
        AsyncCompletions.Completion dropped = (AsyncCompletions.Completion) task[0];
        dropped.abandon(new java.util.concurrent.CancellationException("the application stopped"));
        dropped.run();
        dropped.abandon(null);
        assertEquals(List.of(), completed, "an abandoned completion does not run late");
        assertEquals(1, completions.failures(), "counted once, as failed: its order stays open for the audit");
        assertTrue(completions.awaitIdle(Duration.ZERO));
        completions.close();
    }

    @Test
    void syncModeNeverUsesTheExecutor() {
        AsyncCompletions completions = AsyncCompletions.of(TradeSettings.defaults(), r -> {
            throw new AssertionError("sync mode submitted a completion");
        }, order -> {
            throw new AssertionError("sync mode completed an order");
        });
        completions.submitIfOpen(order(4, TradeRules.OPEN));
        assertTrue(completions.awaitIdle(Duration.ZERO));
        completions.close();
    }
}

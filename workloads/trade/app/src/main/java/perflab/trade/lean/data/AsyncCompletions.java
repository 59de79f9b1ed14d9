package perflab.trade.lean.data;

import perflab.trade.lean.Order;
import perflab.trade.lean.OrderProcessing;
import perflab.trade.lean.TradeSettings;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Asynchronous order completion (DayTrader's Async mode): orders committed open are completed by a few threads.
 * The queue is bounded; when it is full, or after close, the submitting thread completes its own order, so that
 * load slows the requests down instead of losing completions. Closing drains the queue. In sync mode ({@link
 * #of}) there is nothing to complete later: every method returns at once, so a service calls them whatever its mode.
 */
public final class AsyncCompletions implements AutoCloseable {
    /** How long close waits for the queue to drain. */
    static final long DRAIN_SECONDS = 120;

    /** null in sync mode. */
    private final ThreadPoolExecutor executor;
    private final Consumer<Order> completer;
    private final AtomicLong failures = new AtomicLong();

    /** The completions of {@code settings}' order processing: threads and a queue in async mode, none in sync mode. */
    public static AsyncCompletions of(TradeSettings settings, Consumer<Order> completer) {
        return settings.orderProcessing() == OrderProcessing.SYNC ? new AsyncCompletions(completer)
                : new AsyncCompletions(settings.completionThreads(), settings.completionQueue(), completer);
    }

    private AsyncCompletions(Consumer<Order> completer) {
        this.completer = completer;
        this.executor = null;
    }

    AsyncCompletions(int threads, int queue, Consumer<Order> completer) {
        this.completer = completer;
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "trade-completion-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(queue), factory, (task, pool) -> task.run());
    }

    /** An order committed open is handed over to be completed; returned as it is, for the page. */
    public Order submitIfOpen(Order order) {
        if (executor != null && order.isOpen()) {
            executor.execute(() -> complete(order));
        }
        return order;
    }

    /**
     * Waits until every submitted completion has run, at most {@code limit}; returns whether they all have.
     * The executor's task counts are exact once it is quiet, which is what is asked here.
     */
    public boolean awaitIdle(java.time.Duration limit) {
        if (executor == null) {
            return true;
        }
        long deadline = System.nanoTime() + limit.toNanos();
        while (executor.getCompletedTaskCount() < executor.getTaskCount()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Completions that failed (their orders stay open, which the audit reports). */
    public long failures() {
        return failures.get();
    }

    private void complete(Order order) {
        try {
            completer.accept(order);
        } catch (RuntimeException e) {
            // one line for the first: a failing database would otherwise flood the SUT's log
            if (failures.getAndIncrement() == 0) {
                System.err.println("trade: completing order " + order.orderId() + " failed, it stays open: "
                        + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException(executor.getQueue().size()
                        + " order completions still queued after " + DRAIN_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package perflab.trade.lean.data;

import perflab.trade.lean.Order;

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
 * load slows the requests down instead of losing completions. Closing drains the queue.
 */
public final class AsyncCompletions implements AutoCloseable {
    /** How long close waits for the queue to drain. */
    static final long DRAIN_SECONDS = 120;

    private final ThreadPoolExecutor executor;
    private final Consumer<Order> completer;
    private final AtomicLong failures = new AtomicLong();

    public AsyncCompletions(int threads, int queue, Consumer<Order> completer) {
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

    public void submit(Order order) {
        executor.execute(() -> complete(order));
    }

    /**
     * Waits until every submitted completion has run, at most {@code limit}; returns whether they all have.
     * The executor's task counts are exact once it is quiet, which is what is asked here.
     */
    public boolean awaitIdle(java.time.Duration limit) {
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

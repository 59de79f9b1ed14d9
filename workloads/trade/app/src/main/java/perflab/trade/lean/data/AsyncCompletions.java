package perflab.trade.lean.data;

import perflab.trade.lean.Order;
import perflab.trade.lean.OrderProcessing;
import perflab.trade.lean.TradeSettings;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Asynchronous order completion (DayTrader's Async mode): orders committed open are completed by a few threads.
 * The queue is bounded; when it is full, or after close, the submitting thread completes its own order, so that
 * load slows the requests down instead of losing completions. Closing drains the queue. In sync mode ({@link
 * #of}) there is nothing to complete later: every method returns at once, so a service calls them whatever its mode.
 *
 * <p>The threads are the service's own (the lean stack), or a container's executor that keeps the same contract (on
 * Liberty a managed executor whose concurrency policy has that many threads, that queue, and runs a task in its
 * caller when the queue is full): then the completions run with the application's context, as the container wants
 * of any thread that calls its beans.
 */
public final class AsyncCompletions implements AutoCloseable {
    /** How long close waits for the queue to drain. */
    static final long DRAIN_SECONDS = 120;

    /** null in sync mode. */
    private final Executor executor;
    /** The service's own pool, shut down on close; null when the executor is a container's or in sync mode. */
    private final ThreadPoolExecutor ownPool;
    private final Consumer<Order> completer;
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong submitted = new AtomicLong();
    private final AtomicLong finished = new AtomicLong();

    /** The completions of {@code settings}' order processing: threads and a queue in async mode, none in sync mode. */
    public static AsyncCompletions of(TradeSettings settings, Consumer<Order> completer) {
        return of(settings, null, completer);
    }

    /**
     * As {@link #of(TradeSettings, Consumer)}, on {@code executor} in async mode if it is not null (a container's,
     * which must run a task in its caller rather than refuse it); the settings' threads and queue are then the
     * executor's business.
     */
    public static AsyncCompletions of(TradeSettings settings, Executor executor, Consumer<Order> completer) {
        if (settings.orderProcessing() == OrderProcessing.SYNC) {
            return new AsyncCompletions(null, null, completer);
        }
        if (executor != null) {
            return new AsyncCompletions(executor, null, completer);
        }
        ThreadPoolExecutor pool = ownPool(settings.completionThreads(), settings.completionQueue());
        return new AsyncCompletions(pool, pool, completer);
    }

    private AsyncCompletions(Executor executor, ThreadPoolExecutor ownPool, Consumer<Order> completer) {
        this.executor = executor;
        this.ownPool = ownPool;
        this.completer = completer;
    }

    private static ThreadPoolExecutor ownPool(int threads, int queue) {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "trade-completion-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(queue), factory, (task, pool) -> task.run());
    }

    /** An order committed open is handed over to be completed; returned as it is, for the page. */
    public Order submitIfOpen(Order order) {
        if (executor != null && order.isOpen()) {
            submitted.incrementAndGet();
            Completion completion = new Completion(order);
            try {
                executor.execute(completion);
            } catch (RejectedExecutionException e) {
                // a container's executor that refuses (its application stopping): completed here, never lost
                completion.run();
            }
        }
        return order;
    }

    /** Waits until every submitted completion has run, at most {@code limit}; returns whether they all have. */
    public boolean awaitIdle(java.time.Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        // finished is counted after submitted, so equal counts mean nothing is queued or running
        while (finished.get() < submitted.get()) {
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

    /**
     * One order's completion as an executor's task. A container's executor may drop a task it accepted (cancelled as
     * its application stops, or its context unavailable) and say so only to a listener: that listener calls {@link
     * #abandon}, so the order counts as a failed completion (it stays open, which the audit reports) and nothing
     * waits for it.
     */
    public final class Completion implements Runnable {
        private final Order order;
        private final AtomicBoolean settled = new AtomicBoolean();

        private Completion(Order order) {
            this.order = order;
        }

        @Override
        public void run() {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            try {
                completer.accept(order);
            } catch (RuntimeException e) {
                failed(e);
            } finally {
                finished.incrementAndGet();
            }
        }

        /** The executor dropped this task: counted as failed and finished, unless it already ran. */
        public void abandon(Throwable why) {
            if (settled.compareAndSet(false, true)) {
                failed(why == null ? new IllegalStateException("dropped by the executor") : why);
                finished.incrementAndGet();
            }
        }

        private void failed(Throwable e) {
            // one line for the first: a failing database would otherwise flood the SUT's log
            if (failures.getAndIncrement() == 0) {
                System.err.println("trade: completing order " + order.orderId() + " failed, it stays open: "
                        + e.getMessage());
            }
        }
    }

    /** Drains the queue, at most {@link #DRAIN_SECONDS}; a container's executor stays the container's to stop. */
    @Override
    public void close() {
        if (executor == null) {
            return;
        }
        if (ownPool == null) {
            if (!awaitIdle(java.time.Duration.ofSeconds(DRAIN_SECONDS))) {
                throw new IllegalStateException((submitted.get() - finished.get())
                        + " order completions still pending after " + DRAIN_SECONDS + " s");
            }
            return;
        }
        ownPool.shutdown();
        try {
            if (!ownPool.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException(ownPool.getQueue().size()
                        + " order completions still queued after " + DRAIN_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

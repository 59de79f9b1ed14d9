package perflab.trade.lean.data;

import perflab.trade.lean.MarketSummary;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The market summary, computed at most once per interval (DayTrader's marketSummaryInterval): when it is due, one
 * thread computes it while the others keep getting the previous copy; only the very first call makes them wait.
 * A zero interval computes it on every call.
 */
public final class MarketSummaryCache {
    private final long intervalNanos;
    private final Supplier<MarketSummary> compute;
    private final LongSupplier nanoClock;
    private final ReentrantLock computing = new ReentrantLock();
    private volatile MarketSummary summary;
    private volatile long dueAt;

    public MarketSummaryCache(Duration interval, Supplier<MarketSummary> compute, LongSupplier nanoClock) {
        this.intervalNanos = interval.toNanos();
        this.compute = compute;
        this.nanoClock = nanoClock;
    }

    public MarketSummary get() {
        if (intervalNanos == 0) {
            return compute.get();
        }
        MarketSummary current = summary;
        if (current == null) {
            computing.lock();
        } else if (nanoClock.getAsLong() - dueAt < 0 || !computing.tryLock()) {
            return current;
        }
        try {
            // another thread may have computed it while this one waited for the lock
            if (summary == null || nanoClock.getAsLong() - dueAt >= 0) {
                summary = compute.get();
                dueAt = nanoClock.getAsLong() + intervalNanos;
            }
            return summary;
        } finally {
            computing.unlock();
        }
    }

    /** Forgets the copy (after a population replaced every quote). */
    public void invalidate() {
        computing.lock();
        try {
            summary = null;
        } finally {
            computing.unlock();
        }
    }
}

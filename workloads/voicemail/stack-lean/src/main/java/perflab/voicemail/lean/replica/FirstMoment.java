package perflab.voicemail.lean.replica;

import java.util.concurrent.atomic.AtomicLong;

/**
 * When something first happened in this instance, in epoch milliseconds (0: not yet): the stats page's
 * {@code ...-epoch-ms} gauges, from which a fail-over run's figures tell how long after the kill the partner first
 * served a failed instance's user. Thread-safe; only the first mark counts.
 */
public final class FirstMoment {
    private final AtomicLong epochMs = new AtomicLong();

    public void mark() {
        if (epochMs.get() == 0) {
            epochMs.compareAndSet(0, System.currentTimeMillis());
        }
    }

    public long epochMs() {
        return epochMs.get();
    }
}

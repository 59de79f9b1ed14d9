package perflab.driver;

/**
 * Open model: intended send times of requests that are due but have no free connection yet, oldest first.
 * A ring of primitive longs that grows by doubling up to {@link #LIMIT}; see {@link OpenModel} for what
 * happens to requests beyond it, so a stalled server cannot make the driver allocate without bound.
 */
final class RequestBacklog {
    /** At most this many due requests wait per event loop (8 MB of longs). */
    static final int LIMIT = 1 << 20;

    private long[] ring = new long[1024];
    private int head;
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    boolean isFull() {
        return size == LIMIT;
    }

    /** Adds the newest intended time; the caller makes room first when full. */
    void add(long intendedNanos) {
        if (size == ring.length) {
            grow();
        }
        ring[(head + size) & (ring.length - 1)] = intendedNanos;
        size++;
    }

    long peekOldest() {
        return ring[head];
    }

    long pollOldest() {
        long v = ring[head];
        head = (head + 1) & (ring.length - 1);
        size--;
        return v;
    }

    void clear() {
        head = 0;
        size = 0;
    }

    private void grow() {
        long[] bigger = new long[ring.length * 2];
        for (int i = 0; i < size; i++) {
            bigger[i] = ring[(head + i) & (ring.length - 1)];
        }
        ring = bigger;
        head = 0;
    }
}

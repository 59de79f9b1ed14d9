package perflab.voicemail.sip;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A latency histogram cheap enough for every message: log-linear buckets in microseconds, {@value #SUB} to each
 * power of two (exact below {@value #SUB} µs; above, a bucket is 1/{@value #SUB} of its lower bound wide, so its
 * inclusive upper bound is at most 6.25 % above any value in it), counted with one atomic increment and no
 * allocation. Its buckets are exported as cumulative counts by inclusive upper bound ({@link #buckets}), which a
 * reader differences between two readings to get a window's exact bucket counts, hence its percentiles to the
 * bucket's width (perflab's server counters, {@code H.le.<µs>}).
 */
public final class LatencyBuckets {
    static final int SUB = 16;
    private static final int SHIFT = 4; // log2(SUB)
    private static final int SIZE = 64 * SUB;
    private final AtomicLongArray counts = new AtomicLongArray(SIZE);

    /** Counts one value given in nanoseconds (negative values count as 0). */
    public void recordNanos(long nanos) {
        counts.incrementAndGet(index(Math.max(0, nanos) / 1000));
    }

    static int index(long micros) {
        if (micros < SUB) {
            return (int) micros;
        }
        int octave = 63 - Long.numberOfLeadingZeros(micros); // >= SHIFT
        int sub = (int) (micros >>> (octave - SHIFT)) & (SUB - 1);
        return Math.min(SIZE - 1, (octave - SHIFT + 1) * SUB + sub);
    }

    /** The largest value, in µs, that falls in bucket {@code index}. */
    static long upperMicros(int index) {
        if (index < SUB) {
            return index;
        }
        int octave = index / SUB + SHIFT - 1;
        int sub = index % SUB;
        long width = 1L << (octave - SHIFT);
        return (SUB + sub) * width + width - 1;
    }

    /** Every bucket that has counted something: its inclusive upper bound in µs, and its count since the start. */
    public Map<Long, Long> buckets() {
        Map<Long, Long> out = new TreeMap<>();
        for (int i = 0; i < SIZE; i++) {
            long n = counts.get(i);
            if (n > 0) {
                out.put(upperMicros(i), n);
            }
        }
        return out;
    }

    /** Values counted since the start. */
    public long count() {
        long n = 0;
        for (int i = 0; i < SIZE; i++) {
            n += counts.get(i);
        }
        return n;
    }
}

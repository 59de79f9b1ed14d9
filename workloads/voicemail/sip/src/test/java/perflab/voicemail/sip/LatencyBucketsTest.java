package perflab.voicemail.sip;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyBucketsTest {
    @Test
    void bucketsAreExactBelowSixteenMicrosAndASixteenthOfAPowerOfTwoAbove() {
        assertEquals(0, LatencyBuckets.upperMicros(LatencyBuckets.index(0)));
        assertEquals(15, LatencyBuckets.upperMicros(LatencyBuckets.index(15)));
        assertEquals(16, LatencyBuckets.upperMicros(LatencyBuckets.index(16)));
        assertEquals(33, LatencyBuckets.upperMicros(LatencyBuckets.index(32)));
        assertEquals(33, LatencyBuckets.upperMicros(LatencyBuckets.index(33)));
        assertEquals(1023, LatencyBuckets.upperMicros(LatencyBuckets.index(1000)));
        for (long us = 0; us < 5_000_000; us += 1 + us / 7) {
            long upper = LatencyBuckets.upperMicros(LatencyBuckets.index(us));
            assertTrue(upper >= us && upper <= us + us / 16, us + " -> " + upper);
        }
    }

    @Test
    void countsByUpperBound() {
        LatencyBuckets b = new LatencyBuckets();
        b.recordNanos(5_400);
        b.recordNanos(5_999);
        b.recordNanos(1_000_000);
        b.recordNanos(-1);
        assertEquals(Map.of(0L, 1L, 5L, 2L, 1023L, 1L), b.buckets());
        assertEquals(4, b.count());
    }
}

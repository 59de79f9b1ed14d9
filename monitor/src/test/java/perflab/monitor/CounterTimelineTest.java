package perflab.monitor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CounterTimelineTest {
    @Test
    void countersInterpolateAndGaugesAverageInsideTheWindow() {
        CounterTimeline t = new CounterTimeline(2);
        assertTrue(Double.isNaN(t.increase(0, 0, 1000)));
        for (int i = 0; i <= 10; i++) {
            t.add(1000L * i, 100L * i, i % 2 == 0 ? 10 : 30); // a counter growing 100/s; a gauge 10, 30, 10...
        }
        assertEquals(250, t.increase(0, 1500, 4000), 1e-9);
        assertEquals(1000, t.increase(0, -5000, 50_000), 1e-9, "clipped to the samples");
        assertEquals(10.0, t.coveredSeconds(-5000, 50_000), 1e-9);
        assertEquals(20, t.mean(1, 1000, 4000), 1e-9); // 30, 10, 30, 10
        assertEquals(30, t.max(1, 1000, 4000), 1e-9);
        assertEquals(30, t.last(1, 3500), 1e-9);
        assertEquals(10, t.mean(1, 10_400, 10_600), 1e-9, "no sample inside: the nearest one");
    }

    @Test
    void thinningKeepsItBoundedAndTheNewestSampleExact() {
        CounterTimeline t = new CounterTimeline(1, 16);
        for (int i = 0; i < 1000; i++) {
            t.add(1000L * i, 7L * i);
        }
        assertTrue(t.size() <= 16, "size " + t.size());
        assertEquals(7 * 999, t.last(0, Long.MAX_VALUE), 1e-9);
        assertEquals(7 * 500, t.increase(0, 499_000, 999_000), 7 * 64, "linear counter stays linear when thinned");
    }
}

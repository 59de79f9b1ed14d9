package perflab.driver;

import org.junit.jupiter.api.Test;
import perflab.testsupport.Poll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DriverGcWatchTest {
    @Test
    void countsPausesInsideTheWindowOnly() throws Exception {
        try (DriverGcWatch watch = new DriverGcWatch()) {
            System.gc(); // before the window: not counted
            Thread.sleep(200);
            assertEquals(0, watch.pauses());
            long windowStart = System.currentTimeMillis();
            watch.windowStart(windowStart);
            System.gc();
            // notifications arrive on another thread
            Poll.until("the window's GC notification", java.time.Duration.ofSeconds(10), watch::pauses, n -> n >= 1);
            long windowEnd = System.currentTimeMillis();
            watch.windowEnd(windowEnd);
            assertTrue(watch.pauses() >= 1, "pauses " + watch.pauses() + " beans " + java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream().map(b -> b.getName() + "=" + b.getCollectionCount()).toList() + " args " + java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
            // a pause is clipped to the window: never negative, never longer than the window
            assertTrue(watch.pauseMs() >= 0 && watch.pauseMs() <= windowEnd - windowStart,
                    "pause " + watch.pauseMs() + " ms in a window of " + (windowEnd - windowStart) + " ms");
        }
    }

    @Test
    void concurrentCycleBeansAreNotPauses() {
        assertFalse(DriverGcWatch.isPauseBean("ZGC Cycles"));
        assertFalse(DriverGcWatch.isPauseBean("Shenandoah Cycles"));
        assertFalse(DriverGcWatch.isPauseBean("G1 Concurrent GC"));
        assertTrue(DriverGcWatch.isPauseBean("ZGC Pauses"));
        assertTrue(DriverGcWatch.isPauseBean("G1 Young Generation"));
    }
}

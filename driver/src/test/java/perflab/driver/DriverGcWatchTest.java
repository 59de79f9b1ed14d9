package perflab.driver;

import org.junit.jupiter.api.Test;

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
            watch.windowStart(System.currentTimeMillis());
            System.gc();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (watch.pauses() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10); // notifications arrive on another thread
            }
            watch.windowEnd(System.currentTimeMillis());
            assertTrue(watch.pauses() >= 1, "pauses " + watch.pauses() + " beans " + java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream().map(b -> b.getName() + "=" + b.getCollectionCount()).toList() + " args " + java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
            assertTrue(watch.pauseMs() >= 0);
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

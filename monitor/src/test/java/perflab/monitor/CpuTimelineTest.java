package perflab.monitor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuTimelineTest {
    @Test
    void cpuInsideAWindowOfABusyProcess() throws Exception {
        CpuTimeline timeline = new CpuTimeline(ProcessHandle.current().pid());
        timeline.sample();
        long from = System.currentTimeMillis();
        long end = System.nanoTime() + 600_000_000L;
        long sink = 0;
        while (System.nanoTime() < end) {
            sink += sink * 31 + 7;
            if ((sink & 0xffff) == 0) {
                timeline.sample();
            }
        }
        timeline.sample();
        long to = System.currentTimeMillis();
        double cpu = timeline.cpuSecondsBetween(from, to);
        assertTrue(cpu > 0.3 && cpu < 1.5, "cpu " + cpu);
    }

    @Test
    void staysBoundedOverManySamples() {
        CpuTimeline timeline = new CpuTimeline(ProcessHandle.current().pid());
        long start = System.currentTimeMillis();
        for (int i = 0; i < 5000; i++) {
            timeline.sample();
        }
        double all = timeline.cpuSecondsBetween(start - 1000, System.currentTimeMillis() + 1000);
        assertTrue(all >= 0);
        assertEquals(Double.NaN, new CpuTimeline(ProcessHandle.current().pid()).cpuSecondsBetween(0, 1));
    }
}

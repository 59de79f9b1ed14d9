package perflab.monitor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuTimelineTest {
    @Test
    void cpuInsideAWindowMatchesTheProcessCounters() throws Exception {
        long pid = ProcessHandle.current().pid();
        CpuTimeline timeline = new CpuTimeline(pid);
        timeline.sample();
        Thread.sleep(20);
        long from = System.currentTimeMillis();
        perflab.core.os.ProcessCpu.Sample start = perflab.core.os.ProcessCpu.read(pid);
        timeline.sample();
        long end = System.nanoTime() + 600_000_000L;
        long sink = 0;
        while (System.nanoTime() < end) {
            sink += sink * 31 + 7;
        }
        timeline.sample();
        perflab.core.os.ProcessCpu.Sample stop = perflab.core.os.ProcessCpu.read(pid);
        long to = System.currentTimeMillis();
        double cpu = timeline.cpuSecondsBetween(from, to);
        double direct = perflab.core.os.ProcessCpu.secondsBetween(start, stop);
        // whatever else the machine does, the window's reading agrees with the process's own counters
        assertTrue(cpu > 0.05, "cpu " + cpu + " " + sink);
        assertEquals(direct, cpu, 0.05);
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

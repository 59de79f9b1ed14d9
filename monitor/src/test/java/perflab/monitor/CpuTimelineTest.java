package perflab.monitor;

import org.junit.jupiter.api.Test;
import perflab.core.os.ProcessCpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuTimelineTest {
    /**
     * The window's reading is the process counters' own increase when the window's edges are samples (the
     * run monitor's case: the same read serves the per-second figures); the spin runs by the thread's own CPU
     * clock, so a busy machine cannot leave it with less CPU than the test expects.
     */
    @Test
    void cpuInsideAWindowMatchesTheProcessCounters() throws Exception {
        long pid = ProcessHandle.current().pid();
        CpuTimeline timeline = new CpuTimeline(pid);
        timeline.sample();
        Thread.sleep(20);
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long threadStart = threads.getCurrentThreadCpuTime();
        long from = System.currentTimeMillis();
        ProcessCpu.Sample start = ProcessCpu.read(pid);
        timeline.add(from, start);
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() - threadStart < 200_000_000L) {
            for (int i = 0; i < 10_000; i++) {
                sink += sink * 31 + 7;
            }
        }
        double threadSeconds = (threads.getCurrentThreadCpuTime() - threadStart) / 1e9;
        ProcessCpu.Sample stop = ProcessCpu.read(pid);
        long to = System.currentTimeMillis();
        timeline.add(to, stop);
        Thread.sleep(20);
        timeline.sample();
        double cpu = timeline.cpuSecondsBetween(from, to);
        double direct = ProcessCpu.secondsBetween(start, stop);
        assertEquals(direct, cpu, 1e-9);
        // each /proc reading is truncated to a 10 ms tick: two readings can lose up to two ticks
        assertTrue(cpu >= threadSeconds - 0.02, "cpu " + cpu + ", the spinning thread alone " + threadSeconds + " (" + sink + ")");
    }

    /**
     * 5,000 samples (five times the timeline's capacity) of a process that used 1 ms of user and 0.5 ms of system
     * CPU per wall millisecond: the timeline keeps at most its capacity, and still reads any window's CPU exactly
     * (thinning keeps the newest sample, and the counters grow linearly, so interpolation loses nothing).
     */
    @Test
    void staysBoundedOverManySamples() {
        CpuTimeline timeline = new CpuTimeline(42);
        long t0 = 1_700_000_000_000L;
        for (int i = 0; i < 5000; i++) {
            timeline.add(t0 + i, new ProcessCpu.Sample(42, i * 1_000_000L, i * 500_000L, i * 1_000_000L, 1));
        }
        assertTrue(timeline.samples() <= 1024 && timeline.samples() >= 512, "samples kept: " + timeline.samples());
        assertEquals(4.999 * 1.5, timeline.cpuSecondsBetween(t0, t0 + 4999), 1e-9, "the whole span");
        assertEquals(1.0 * 1.5, timeline.cpuSecondsBetween(t0 + 3999, t0 + 4999), 1e-9, "the last second");
        assertEquals(1.0, timeline.userSecondsBetween(t0 + 100, t0 + 1100), 1e-9, "a second among thinned samples");
        assertEquals(0.5, timeline.systemSecondsBetween(t0 + 100, t0 + 1100), 1e-9);
        assertEquals(Double.NaN, new CpuTimeline(ProcessHandle.current().pid()).cpuSecondsBetween(0, 1));
    }
}

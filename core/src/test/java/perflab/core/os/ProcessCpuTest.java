package perflab.core.os;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessCpuTest {
    /** Each /proc reading is truncated to a 10 ms tick: two readings can lose up to two ticks between them. */
    private static final double TWO_TICKS_SECONDS = 0.02;

    /**
     * The thread spins until its own CPU clock has run 300 ms (not for a wall-clock time, which a busy machine
     * would fill with waiting), so the process read at least that much; and no process reads more CPU than
     * its CPUs could give it over the wall time.
     */
    @Test
    void aSpinningThreadsCpuIsInTheProcesssAndTheShareIsWithinTheMachine() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long threadStart = threads.getCurrentThreadCpuTime();
        ProcessCpu.Sample before = ProcessCpu.self();
        assertNotNull(before);
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() - threadStart < 300_000_000L) {
            for (int i = 0; i < 10_000; i++) {
                sink += sink * 31 + 7;
            }
        }
        ProcessCpu.Sample after = ProcessCpu.self();
        double threadSeconds = (threads.getCurrentThreadCpuTime() - threadStart) / 1e9;
        double processSeconds = ProcessCpu.secondsBetween(before, after);
        assertTrue(processSeconds >= threadSeconds - TWO_TICKS_SECONDS,
                "process " + processSeconds + " s, its spinning thread alone " + threadSeconds + " s (" + sink + ")");
        double wallSeconds = (after.wallNanos() - before.wallNanos()) / 1e9;
        double percent = ProcessCpu.percentOfOneCore(before, after);
        double ceiling = 100.0 * (Runtime.getRuntime().availableProcessors() + TWO_TICKS_SECONDS / wallSeconds);
        assertTrue(percent > 0 && percent <= ceiling, "cpu% " + percent + " over " + wallSeconds + " s, ceiling " + ceiling);
    }

    @Test
    void goneProcessReadsNull() {
        assertNull(ProcessCpu.read(Integer.MAX_VALUE - 1));
    }
}

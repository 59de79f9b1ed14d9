package perflab.monitor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A back-end process is sampled beside the SUT and gets its own window figures. */
class RunMonitorBackendTest {
    @Test
    void backendProcessHasItsOwnWindow() throws Exception {
        RunMonitor monitor = new RunMonitor(java.util.Map.of("backend", ProcessHandle.current().pid()), null); // this JVM plays a companion
        long from = System.currentTimeMillis();
        monitor.sample();
        long x = 0;
        // burn CPU the sampler must see: 200 ms by the thread's own CPU clock, however busy the machine
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long threadStart = threads.getCurrentThreadCpuTime();
        while (threads.getCurrentThreadCpuTime() - threadStart < 200_000_000L) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        Thread.sleep(20);
        monitor.sample();
        long to = System.currentTimeMillis();
        RunMonitor.Window w = monitor.window(from, to);
        assertNull(w.sut());
        assertNotNull(w.processes().get("backend"), "no back-end window");
        // the monitor's window spans the spin; each /proc reading is truncated to a 10 ms tick
        assertTrue(w.processes().get("backend").cpuSeconds() >= 0.2 - 0.02, "back-end cpu " + w.processes().get("backend").cpuSeconds() + " (" + x + ")");
        assertTrue(w.processes().get("backend").rssMb() > 1 && w.processes().get("backend").threads() > 1, w.processes().get("backend").toString());
    }
}

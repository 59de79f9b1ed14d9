package perflab.monitor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A back-end process is sampled beside the SUT and gets its own window figures. */
class RunMonitorBackendTest {
    @Test
    void backendProcessHasItsOwnWindow() throws Exception {
        RunMonitor monitor = new RunMonitor(-1, ProcessHandle.current().pid(), null); // this JVM plays the back end
        long from = System.currentTimeMillis();
        monitor.sample();
        long x = 0;
        long until = System.nanoTime() + 300_000_000L;
        while (System.nanoTime() < until) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime()); // burn CPU the sampler must see
        }
        Thread.sleep(20);
        monitor.sample();
        long to = System.currentTimeMillis();
        RunMonitor.Window w = monitor.window(from, to);
        assertNull(w.sut());
        assertNotNull(w.backend(), "no back-end window");
        assertTrue(w.backend().cpuSeconds() > 0.05, "back-end cpu " + w.backend().cpuSeconds() + " (" + x + ")");
        assertTrue(w.backend().rssMb() > 1 && w.backend().threads() > 1, w.backend().toString());
    }
}

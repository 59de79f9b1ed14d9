package perflab.core.os;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MachineCpuTest {
    @Test
    void parsesTheAggregateLine() {
        MachineCpu.Sample s = MachineCpu.parse("cpu  100 5 50 800 20 3 2 1 0 0");
        assertEquals(100 + 5 + 50 + 3 + 2 + 1, s.busyTicks());
        assertEquals(161 + 800 + 20, s.totalTicks());
    }

    @Test
    void aSpinningThreadShowsInTheMachinesBusyShare() {
        MachineCpu.Sample before = MachineCpu.read();
        assertNotNull(before);
        assertTrue(before.cpus() >= 1);
        long end = System.nanoTime() + 500_000_000L;
        long sink = 0;
        while (System.nanoTime() < end) {
            sink += sink * 31 + 7;
        }
        double busy = MachineCpu.percentBusy(before, MachineCpu.read());
        // at least this thread's share of the machine (one of its CPUs), less /proc's 10 ms tick rounding
        assertTrue(busy >= 100.0 / before.cpus() * 0.8 && busy <= 100.0, "busy " + busy + " " + sink);
    }
}

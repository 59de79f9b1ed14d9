package perflab.core.os;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessCpuTest {
    @Test
    void spinningThreadReadsAboutOneCore() {
        ProcessCpu.Sample before = ProcessCpu.self();
        assertNotNull(before);
        long end = System.nanoTime() + 1_000_000_000L;
        long sink = 0;
        while (System.nanoTime() < end) {
            sink += sink * 31 + 7;
        }
        ProcessCpu.Sample after = ProcessCpu.self();
        double percent = ProcessCpu.percentOfOneCore(before, after);
        // one spinning thread plus the JVM's own: about one core, tolerant of a busy 2-core machine
        assertTrue(percent > 50 && percent < 250, "cpu% " + percent + " " + sink);
    }

    @Test
    void goneProcessReadsNull() {
        assertNull(ProcessCpu.read(Integer.MAX_VALUE - 1));
    }
}

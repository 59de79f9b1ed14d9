package perflab.core.result.gc;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Instances' GC as one: what adds up adds up, what cannot be merged is bounded from above. */
class GcAnalysisCombineTest {
    private static GcAnalysis of(String collector, long count, double totalPauseMs, double maxMs, double p99Ms,
                                 Double liveMb, Double allocation, double window, List<GcSecond> seconds) {
        return new GcAnalysis(collector, count, count, 0, 0, 0, count, totalPauseMs, totalPauseMs, 0, 0,
                100 * totalPauseMs / (window * 1000), maxMs, maxMs / 2, p99Ms, null, liveMb, allocation, null, window,
                "wall", 0.5, 0, List.of(), seconds);
    }

    @Test
    void countsAndPausesAddUpTheOverheadIsOverEveryInstancesTime() {
        GcAnalysis a = of("g1", 10, 100, 20, 15, 50.0, 200.0, 20, List.of(new GcSecond(1_000, 10, 1, 60.0)));
        GcAnalysis b = of("g1", 30, 300, 40, 30, null, 100.0, 20, List.of(new GcSecond(1_000, 5, 1, 40.0),
                new GcSecond(2_000, 7, 1, null)));
        GcAnalysis c = GcAnalysis.combine(List.of(a, b));
        assertEquals("g1", c.collector());
        assertEquals(40, c.count());
        assertEquals(400, c.totalPauseMs());
        assertEquals(1.0, c.overheadPercent(), 1e-9); // 400 ms of 40 instance-seconds
        assertEquals(40, c.maxPauseMs());
        assertEquals(30, c.p99PauseMs());
        assertEquals(50.0, c.liveSetMb()); // the instance that logged none adds nothing
        assertEquals(300.0, c.allocationRateMbPerSec());
        assertNull(c.gcCpuSeconds());
        assertEquals(List.of(new GcSecond(1_000, 15, 2, 100.0), new GcSecond(2_000, 7, 1, null)), c.perSecond());
        // bytes per request from the summed rate over the window: 300 MB/s x 20 s over 6,000 requests
        assertEquals(300.0 * 20 * 1024 * 1024 / 6_000, c.withRequests(6_000).allocatedBytesPerRequest(), 1e-6);
        assertEquals("mixed", GcAnalysis.combine(List.of(a, of("zgc", 1, 1, 1, 1, null, null, 20, List.of()))).collector());
        assertSame(a, GcAnalysis.combine(List.of(a)));
    }
}

package perflab.loadsource.sipp;

import org.junit.jupiter.api.Test;
import perflab.core.result.Json;
import perflab.core.result.LoadFigures;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** A SIPp load's figures in summary.json's shared shape, and read back whole from it. */
class SipLoadFiguresTest {
    private static final SipLoadFigures FIGURES = new SipLoadFigures(1_000_000, 11_000_000, 10, 10, 200, 0, 200, 197, 3,
            Map.of("MaxUDPRetrans", 3L), 20, 19.7, 5, 0, 0, Map.of("Warnings", 1L), 7,
            Map.of("1", new SipResponseTime(197, 2.1, 2.0, 4.0, 8.0, 12.0, "trace_rtt")), 1000.0, null);

    @Test
    void theSharedShapeCountsCallsAndKeepsEveryFigure() throws Exception {
        LoadFigures shared = FIGURES.toLoadFigures();
        assertEquals("sipp", shared.kind());
        assertEquals(200, shared.started());
        assertEquals(197, shared.succeeded());
        assertEquals(3, shared.failed());
        assertFalse(shared.figures().containsKey("seconds"), "the window's own fields are the shared shape's");
        assertEquals("200 calls in 10.0 s (20.00/s), 197 ok, 3 failed {MaxUDPRetrans=3}, 5 retransmissions, at most 7 "
                + "open; rtd 1 p50 2.0 p99 8.0 max 12.0 ms", shared.describe());
        LoadFigures read = Json.MAPPER.readValue(Json.bytes(shared), LoadFigures.class);
        assertEquals(FIGURES, SipLoadFigures.of(read), "read back as written");
    }

    @Test
    void aSummaryOfTheOlderShapeReadsBackAsWellAsItWasWritten() throws Exception {
        LoadFigures old = Json.MAPPER.readValue(Json.bytes(FIGURES), LoadFigures.class); // the entry was the figures
        assertEquals(FIGURES, SipLoadFigures.of(old));
    }
}

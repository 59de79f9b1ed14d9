package perflab.core.result;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** summary.json's load sources and fail-over phases in the shape every source shares, and the older shape read. */
class LoadFiguresTest {
    @Test
    void theSharedShapeGoesThroughJsonAsItIs() throws Exception {
        LoadFigures f = new LoadFigures("sipp", "call", 1_000_000, 11_000_000, 10, 10, 200, 197, 3,
                Map.of("retransmissions", 5, "failedByReason", Map.of("MaxUDPRetrans", 3)), "200 calls", null);
        LoadFigures read = Json.MAPPER.readValue(Json.bytes(f), LoadFigures.class);
        assertEquals(f.kind(), read.kind());
        assertEquals(f.started(), read.started());
        assertEquals(f.failed(), read.failed());
        assertEquals(5, ((Number) read.figures().get("retransmissions")).intValue());
        assertEquals("200 calls", read.describe());
        assertEquals(20.0, read.perSecond());
    }

    @Test
    void aLoadOfASummaryWrittenBeforeLoadSourcesWerePluginsReadsAsASippLoad() throws Exception {
        String old = """
                {"fromEpochMicros":1000000,"toEpochMicros":11000000,"seconds":10.0,"periods":10,"callsCreated":200,
                 "incomingCalls":0,"outgoingCalls":200,"successfulCalls":197,"failedCalls":3,
                 "failedByReason":{"MaxUDPRetrans":3},"callsPerSecond":20.0,"retransmissions":5,"maxCurrentCalls":7}
                """;
        LoadFigures f = Json.MAPPER.readValue(old, LoadFigures.class);
        assertEquals("sipp", f.kind());
        assertEquals("call", f.unit());
        assertEquals(200, f.started());
        assertEquals(197, f.succeeded());
        assertEquals(3, f.failed());
        assertEquals(10, f.periods());
        assertEquals(5, ((Number) f.figures().get("retransmissions")).intValue(), "the old entry is the kind's figures");
        assertNull(f.line());
        assertEquals("200 calls in 10.0 s (20.00/s), 197 ok, 3 failed", f.describe());
    }

    @Test
    void aFailoverPhaseOfAnOlderSummaryKeepsItsSippFiguresUnderLoads() throws Exception {
        String old = """
                {"fromSecond":8.0,"toSecond":11.0,"requests":30,"errors":1,"latencyP99Ms":500.0,"sipCalls":6,
                 "sipFailedCalls":1,"sipRetransmissions":3,"sipResponseTimeMaxMs":{"notifier":{"notify":2000.0}}}
                """;
        RunSummary.FailoverPhase p = Json.MAPPER.readValue(old, RunSummary.FailoverPhase.class);
        assertEquals(30, p.requests());
        assertEquals(Map.of("callsCreated", 6.0, "failedCalls", 1.0, "retransmissions", 3.0), p.loads().get("sipp"));
        assertEquals(Map.of("rtdnotifyMeanMs", 2000.0), p.loads().get("notifier"));

        RunSummary.FailoverPhase now = new RunSummary.FailoverPhase(0, 8, 80, 0, 1.0, 1.0, 1.0,
                Map.of("notifier", Map.of("failedCalls", 0.0, "retransmissions", 2.0)));
        String json = new String(Json.bytes(now), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(!json.contains("sipCalls"), json);
        assertEquals(now, Json.MAPPER.readValue(json, RunSummary.FailoverPhase.class));
    }
}

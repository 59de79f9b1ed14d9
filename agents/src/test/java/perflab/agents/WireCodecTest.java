package perflab.agents;

import org.junit.jupiter.api.Test;
import perflab.agents.wire.ToAgent;
import perflab.agents.wire.ToController;
import perflab.agents.wire.WireCodec;
import perflab.driver.DriverResult;
import perflab.driver.DriverResults;
import perflab.driver.Interval;
import perflab.driver.Phase;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WireCodecTest {
    @Test
    void aReportKeepsEveryHistogramCountAndEveryCounter() {
        long[] values = new long[5000];
        for (int i = 0; i < values.length; i++) {
            values[i] = 1 + (i * 7919L) % 3_000_000; // up to 3 s, spread
        }
        Interval sent = IntervalMergeTest.interval(Phase.MEASURE, 1_700_000_000_000L, 4990, 10, values);
        ToController back = WireCodec.decode(WireCodec.encode(new ToController.Report(3, sent, 1.5, 2.0)), ToController.class);
        ToController.Report r = assertInstanceOf(ToController.Report.class, back);
        assertEquals(3, r.index());
        Interval got = r.interval();
        assertEquals(sent.latency(), got.latency(), "the histogram, every count");
        assertEquals(sent.errors(), got.errors());
        assertEquals(sent.byKind().get("echo").latency(), got.byKind().get("echo").latency());
        assertEquals(sent.startEpochMs(), got.startEpochMs());
        assertEquals(sent.bytesReceived(), got.bytesReceived());
    }

    @Test
    void aResultAndAPlanGoAcrossWhole() {
        Interval i = IntervalMergeTest.interval(Phase.MEASURE, 5, 7, 1, 10, 20, 3_000_000);
        DriverResult r = new DriverResult(false, "stopped", 5, 1005, 1.0, i.successes(), i.errors(), List.of("a timeout"),
                i.latency(), i.serviceTime(), i.failed(), i.lag(), 3, 4, 0.5, 1.25, true, "busy", 70, 140, 2, i.byKind());
        ToController.Finished f = assertInstanceOf(ToController.Finished.class,
                WireCodec.decode(WireCodec.encode(new ToController.Finished(r)), ToController.class));
        DriverResult got = f.result();
        assertEquals(r.endReason(), got.endReason());
        assertEquals(r.latency(), got.latency());
        assertEquals(r.requests(), got.requests());
        assertEquals(r.errorSamples(), got.errorSamples());
        assertEquals(r.saturationReason(), got.saturationReason());
        assertEquals(2, got.resent());
        assertEquals(r.byKind().get("echo").latency(), got.byKind().get("echo").latency());
        // the agent's clock onto the controller's: only the wall-clock times move
        assertEquals(1005 + 250, DriverResults.shifted(got, 250).measureEndEpochMs());
        ToAgent.Plan plan = new ToAgent.Plan("soap-echo", "echo", java.net.URI.create("http://127.0.0.1:1/x"),
                java.util.Map.of("size", "1k"), WorkSplit.split(WorkSplitTest.spec(4, 100, 0), new int[]{1, 1}).get(1));
        ToAgent.Plan planGot = assertInstanceOf(ToAgent.Plan.class, WireCodec.decode(WireCodec.encode(plan), ToAgent.class));
        assertEquals(plan, planGot, "the load spec of the agent's share, its place and durations included");
    }

    @Test
    void garbageIsRefusedInOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WireCodec.decode("{\"type\":\"nonsense\"}".getBytes(), ToController.class));
        assertEquals(true, e.getMessage().startsWith("a message perflab cannot read"));
    }
}

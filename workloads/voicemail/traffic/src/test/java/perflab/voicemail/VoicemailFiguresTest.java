package perflab.voicemail;

import org.junit.jupiter.api.Test;
import perflab.core.result.RunSummary;
import perflab.core.result.ServerWindow;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class VoicemailFiguresTest {
    @Test
    void figuresAreArithmeticOnTheWindow() {
        ServerWindow.Sample start = new ServerWindow.Sample(0, "warmup", Map.of("operations.phone-hangup", 10.0,
                "operations.web-hangup", 5.0, "sip.sip.datagrams.in", 1000.0, "sip.sip.datagrams.out", 900.0,
                "sip.calls.invites.phone", 20.0, "sip.calls.invites-answered.phone", 20.0, "liveSessions", 3.0,
                "clicks", 20.0, "refused", 4.0));
        Map<String, Double> ended = new HashMap<>(Map.of("operations.phone-hangup", 40.0,
                "operations.web-hangup", 25.0, "operations.failed", 2.0, "failures.phone-timeout", 3.0,
                "sip.sip.datagrams.in", 1600.0, "sip.sip.datagrams.out", 1300.0, "sip.calls.invites.phone", 70.0,
                "sip.calls.invites-answered.phone", 68.0, "liveSessions", 5.0, "latencyUs.srd.le.1023", 50.0));
        ended.putAll(Map.of("clicks", 70.0, "refused", 54.0));
        ServerWindow.Sample end = new ServerWindow.Sample(10_000, "measure", ended);
        ServerWindow w = ServerWindow.of(VoicemailFigures.COUNTERS, "u", List.of(start, end), 0);
        RunSummary s = new RunSummary("voicemail", "lean", "converged", "open", 4, 5.0, true, "completed", 10, 120, 120,
                Map.of("total", 0L), 12, 3, null, null, null, null, null,
                new RunSummary.Sut(1L, 1.0, 0.9, 0.1, 10.0, 5.0, null, null, null, null, null, null, null, null, null, 1),
                null, null, null, null, Map.of(), null, Map.of(), Map.of(), Map.of(), null, w, null);
        Map<String, Object> f = VoicemailFigures.of(s);
        assertEquals(50L, f.get("convergedOperations"));
        assertEquals(5.0, f.get("convergedOperationsPerSecond"));
        assertEquals(18000.0, f.get("convergedOperationsPerHour"));
        assertEquals(12.0, f.get("httpRequestsPerSecond"));
        assertEquals(100.0, f.get("sipMessagesPerSecond"));
        assertEquals(5L, f.get("failedCalls"));
        assertEquals(Map.of("phone-timeout", 3L, "mid-call", 2L), f.get("failedCallsByReason"));
        // refused at the door: apart from the failed calls, a share of the clicks admitted or refused
        assertEquals(Map.of("count", 50L, "perSecond", 5.0, "percent", 50.0), f.get("refusedClicks"));
        assertEquals(96.0, ((Map<?, ?>) f.get("ser")).get("percent"));
        assertEquals(1.023, ((Map<?, ?>) f.get("srdMs")).get("p99"));
        assertEquals(5.0, ((Map<?, ?>) f.get("liveSessions")).get("mean"));
        assertEquals(20000.0, f.get("sutCpuPerOperationUs"));
    }

    @Test
    void lostInSetupIsAtMostThePeerCallsTheTakeOversCountedAbandoned() {
        assertEquals(0L, VoicemailFigures.lostInSetup(2, 0), "no set-up caught: a loss of another kind");
        assertEquals(1L, VoicemailFigures.lostInSetup(1, 1));
        assertEquals(1L, VoicemailFigures.lostInSetup(3, 1), "one set-up caught subscribing: one notifier call at most");
        assertEquals(2L, VoicemailFigures.lostInSetup(2, 3), "what failed, when fewer than were abandoned");
    }
}

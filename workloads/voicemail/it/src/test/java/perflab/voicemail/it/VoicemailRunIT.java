package perflab.voicemail.it;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The voicemail workload through `perflab run` with every SIPp role real (CI installs sip-tester): users arrive at
 * a low rate, half hang up from the page and half from the phone, calls are held 2 s. No call may fail on either
 * side, no click may be lost by the server (ended, failed or still in its call), the SIP messages must be the 21 a
 * user of the contract, and the run directory must hold the users file SIPp read.
 */
class VoicemailRunIT {
    @TempDir
    Path work;

    @Test
    void aShortRunAtALowRateCompletesEveryCallOnBothHangUpPaths() throws Exception {
        Path out = work.resolve("vm");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "voicemail", "--rate", "5", "--hold", "2s",
                "--users", "1000", "--clients", "4", "--warmup", "3s", "--duration", "8s", "--heap", "128m",
                "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(180)), p.err() + p.out());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        JsonNode details = everyCallCompleted(summary);
        assertEquals(0, details.get("failedMidCall").asLong(), details.toString());
        assertEquals(0, details.get("failures").size(), details.toString());
        assertEquals(0, details.get("leaked").asLong(), "every click ended, failed or is in its call: " + details);
        // users still in a call are web users whose hang-up was due after the drive: at most a hold's worth
        assertTrue(details.get("liveSipUsers").asLong() <= 5 * 2 + 2, details.toString());
        // 21 SIP messages a user (docs/workloads/voicemail.md): every operation's, plus the set-ups of those still up
        JsonNode sip = details.get("sip");
        long datagrams = sip.get("sip.datagrams.in").asLong() + sip.get("sip.datagrams.out").asLong()
                - sip.get("sip.retransmissions.sent").asLong() - sip.get("sip.retransmissions.absorbed").asLong();
        long operations = details.get("operations").asLong();
        assertTrue(datagrams >= 21 * operations && datagrams <= 21 * details.get("clicks").asLong(),
                datagrams + " SIP messages for " + operations + " operations and " + details.get("clicks") + " clicks");
        assertTrue(Files.readString(out.resolve("users.csv")).startsWith("SEQUENTIAL\nu0000000;"));
        figures(out, summary);
    }

    /**
     * No failed request, no failed call at any SIPp peer (each of which took calls), the server's account of the calls
     * passed, and both hang-up paths ran; the account's details, for more.
     */
    static JsonNode everyCallCompleted(JsonNode summary) {
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.get("errors").toString());
        for (String peer : new String[]{"phone", "line", "notifier"}) {
            JsonNode load = summary.get("loads").get(peer);
            assertEquals(0, load.get("failed").asLong(), peer + ": " + load);
            assertEquals(0, load.get("figures").get("failedCalls").asLong(), peer + ": " + load);
            assertTrue(load.get("succeeded").asLong() > 0, peer + ": " + load);
        }
        JsonNode calls = summary.get("checks").get("calls");
        assertEquals("passed", calls.get("status").asText(), calls.toString());
        JsonNode details = calls.get("details");
        assertTrue(details.get("phoneHangups").asLong() > 0 && details.get("webHangups").asLong() > 0,
                "both hang-up paths: " + details);
        return details;
    }

    /** Issue 11's metrics: the server's counters sampled each second, and voicemail's figures from them. */
    private static void figures(Path out, JsonNode summary) throws Exception {
        JsonNode server = summary.get("server");
        assertTrue(server.get("samples").asInt() >= 5, server.toString());
        assertTrue(server.get("seconds").asDouble() > 5 && server.get("seconds").asDouble() < 9, server.toString());
        JsonNode f = summary.get("figures");
        assertEquals(0, f.get("failedCalls").asLong(), f.toString());
        assertEquals(0, f.get("failedCallsByReason").size(), f.toString());
        assertEquals(0, f.get("sippFailedCalls").get("total").asLong(), f.toString());
        double ops = f.get("convergedOperationsPerSecond").asDouble();
        assertTrue(ops > 2.5 && ops < 7.5, "about the click rate, 5/s: " + f);
        assertEquals(ops * 3600, f.get("convergedOperationsPerHour").asDouble(), 0.01 * 3600, f.toString());
        assertTrue(f.get("httpRequestsPerSecond").asDouble() > ops, f.toString());
        // 21 messages an operation, give or take the calls across the window's ends
        double sip = f.get("sipMessagesPerSecond").asDouble();
        assertTrue(sip > 12 * ops && sip < 30 * ops, sip + " SIP messages/s for " + ops + " operations/s");
        assertTrue(f.get("retransmissions").has("sutSent") && f.get("retransmissions").has("sipp"), f.toString());
        assertTrue(f.get("ser").get("percent").asDouble() >= 90, f.toString());
        for (String latency : new String[]{"notifyTo200Ms", "srdMs", "srdPhoneMs", "srdLineMs"}) {
            JsonNode l = f.get(latency);
            assertTrue(l.get("count").asLong() > 0 && l.get("p95").asDouble() > 0
                    && l.get("p95").asDouble() <= l.get("p99").asDouble(), latency + ": " + l);
        }
        assertTrue(f.get("liveSessions").get("max").asLong() > 0, f.toString());
        assertTrue(f.get("sutCpuPerOperationUs").asDouble() > 0, f.toString());
        List<String> rows = Files.readAllLines(out.resolve("timeseries-server.csv"));
        assertTrue(rows.stream().anyMatch(r -> r.contains(",measure,") && r.contains(",operations.phone-hangup,")), rows.toString());
        assertTrue(Files.readString(out.resolve("report.html")).contains("voicemail figures"));
    }
}

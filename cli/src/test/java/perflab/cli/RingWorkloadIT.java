package perflab.cli;

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
 * The second-load-source example (test-workloads/ring) through `perflab run`: SIPp (CI installs sip-tester) calls
 * the SUT's announced SIP port for the whole drive beside the HTTP driver, and its calls are cut to the same
 * measured window: summary.json's loads.calls, its CPU under processes, its seconds in timeseries-loads.csv. A
 * second SIPp, the phone, only answers: it starts before the SUT, which is told its port and calls it as it starts.
 */
class RingWorkloadIT {
    private static final String RING = PerflabProcess.testWorkload("ring");

    @TempDir
    Path work;

    @Test
    void sippCallsBesideTheHttpDriverAreCutToTheMeasuredWindow() throws Exception {
        Path out = work.resolve("ring");
        try (PerflabProcess p = PerflabProcess.startWith(work, RING, "run", "ring", "--clients", "2",
                "--call-rate", "50", "--warmup", "3s", "--duration", "6s", "--heap", "64m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
            assertTrue(p.out().contains("sipp calls"), p.out());
            assertTrue(p.out().indexOf("perflab: load source phone (sipp) pid") < p.out().indexOf("perflab: SUT pid")
                    && p.out().indexOf("perflab: SUT pid") < p.out().indexOf("perflab: load source calls (sipp) pid"),
                    "the phone starts before the SUT, the caller after it: " + p.out());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        JsonNode calls = summary.get("loads").get("calls");
        // the shape every load source shares, and SIPp's own figures under figures
        assertEquals("sipp", calls.get("kind").asText(), calls.toString());
        assertEquals("call", calls.get("unit").asText(), calls.toString());
        assertEquals(0, calls.get("failed").asLong(), calls.toString());
        JsonNode sipp = calls.get("figures");
        assertEquals(0, sipp.get("failedCalls").asLong(), calls.toString());
        assertEquals(calls.get("started").asLong(), sipp.get("callsCreated").asLong(), calls.toString());
        // whole SIPp seconds inside a 6 s window: at least 3 of them, at about 50 calls each (a busy machine
        // delays SIPp's ticks, so the band is wide)
        assertTrue(calls.get("seconds").asDouble() >= 3 && calls.get("seconds").asDouble() <= 6.5, calls.toString());
        double rate = sipp.get("callsPerSecond").asDouble();
        assertTrue(rate > 25 && rate < 75, "SIPp was asked for 50 calls/s: " + calls);
        assertTrue(calls.get("succeeded").asLong() > 0 && calls.get("succeeded").asLong() == sipp.get("successfulCalls").asLong(),
                calls.toString());
        assertTrue(sipp.get("responseTimesMs").get("1").get("count").asLong() > 0, calls.toString());
        // SIPp sent 50 calls/s through the window: its process used CPU, and the monitor saw it
        assertTrue(summary.get("processes").get("calls").get("cpuSeconds").asDouble() > 0, summary.get("processes").toString());

        JsonNode processes = new ObjectMapper().readTree(out.resolve("run.json").toFile()).get("processes");
        int sipPort = processes.get("sut").get("ports").get("sip").asInt();
        assertTrue(processes.get("calls").get("command").toString().contains("\"127.0.0.1:" + sipPort + "\""),
                processes.toString());
        assertEquals(0, processes.get("calls").get("exitStatus").asInt(), "SIPp stopped by perflab ends with 0: " + processes);
        int phonePort = processes.get("phone").get("ports").get("port").asInt();
        assertTrue(processes.get("sut").get("command").toString().contains("\"--phone\",\"127.0.0.1:" + phonePort + "\""),
                "the SUT is told where the phone answers: " + processes);
        assertEquals(0, processes.get("phone").get("exitStatus").asInt(), "the SUT's call succeeded: " + processes);
        // the phone is monitored too: its CPU is a figure (it answers one call, before the window: it may be 0), no
        // more than the calling SIPp's
        JsonNode phoneCpu = summary.get("processes").get("phone").get("cpuSeconds");
        assertTrue(phoneCpu != null && phoneCpu.isNumber() && phoneCpu.asDouble() >= 0
                && phoneCpu.asDouble() <= summary.get("processes").get("calls").get("cpuSeconds").asDouble(),
                summary.get("processes").toString());
        assertTrue(summary.get("loads").has("phone"), summary.get("loads").toString());

        List<String> rows = Files.readAllLines(out.resolve("timeseries-loads.csv"));
        assertTrue(rows.get(0).startsWith("second,phase,epochMs,load,callsPerSecond,"), rows.get(0));
        long measuredRows = rows.stream().filter(r -> r.contains(",measure,") && r.contains(",calls,")).count();
        assertEquals(calls.get("periods").asLong(), measuredRows, "the window's figures are made of its measured rows");
        assertTrue(rows.stream().anyMatch(r -> r.contains(",warmup,")), "SIPp runs through the warm-up too");
        long phoneCalls = rows.stream().filter(r -> r.contains(",phone,")).mapToLong(r -> Long.parseLong(r.split(",")[6])).sum();
        assertEquals(1, phoneCalls, "the phone answered the SUT's one call: " + rows);
        assertTrue(Files.readString(out.resolve("report.html")).contains("Load sources beside the driver"));
    }

    @Test
    void aSippLoadCannotRunAgainstAGivenTarget() throws Exception {
        try (PerflabProcess p = PerflabProcess.startWith(work, RING, "drive", "ring", "--target", "http://127.0.0.1:9")) {
            assertEquals(2, p.await(Duration.ofSeconds(60)));
            assertEquals("perflab: load source calls (sipp) needs {sut.sip}, a port of the server side perflab starts: it cannot "
                    + "run with --target\n", p.err());
        }
    }

    @Test
    void perflabServeStartsNoSippSoItRefusesASutToldWhereThePhoneAnswers() throws Exception {
        try (PerflabProcess p = PerflabProcess.startWith(work, RING, "serve", "ring", "--out", work.resolve("serve").toString())) {
            assertEquals(2, p.await(Duration.ofSeconds(60)));
            assertEquals("perflab: the server side's settings name {phone.port}, the port of load source phone: only perflab "
                    + "run starts the server side with its load sources\n", p.err());
        }
    }
}

package perflab.voicemail.it;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `perflab tune` with a rate search, on voicemail with real SIPp peers and a capacity made small and known: five
 * calls at a time (--max-calls 5) held half a second admit at most 10 new users per second; above that clicks are
 * refused at the door. The search must find a capacity below that bound, a first failing rate above it, and say
 * why the failing trials failed.
 */
class VoicemailCapacitySearchIT {
    @TempDir
    Path work;

    @Test
    void aSearchFindsTheAdmissionLimitOfASmallServer() throws Exception {
        Path file = work.resolve("capacity.yaml");
        // resolution 50 %: up from 8 to 16 (failed), one bisection step to 12 (above the limit: failed) and done;
        // or, if 8 already failed, down to 4 and once up to 6. Each trial is a voicemail run of about 20 s; a finer
        // resolution only adds trials at the limit itself, whose verdict can go either way, and CapacitySearchTest
        // holds the bisection down to a resolution
        Files.writeString(file, """
                workload: voicemail
                max-calls: 5
                hold: 0.5s
                users: 5000
                clients: 4
                warmup: 2s
                duration: 6s
                heap: 128m
                rate-search: {start: 8, max: 16, resolution: 50%, confirm: false, trials: 6}
                """);
        Path out = work.resolve("search");
        try (PerflabProcess p = PerflabProcess.start(work, "tune", file.toString(), "--quiet", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(420)), p.err() + p.out());
            assertTrue(p.out().contains("a trial passes with zero failures"), p.out());
        }
        JsonNode r = new ObjectMapper().readTree(out.resolve("experiment.json").toFile());
        assertEquals("rate-search", r.get("kind").asText());
        JsonNode s = r.get("rateSearch");
        assertEquals("users/s", s.get("rateUnit").asText());
        assertEquals(60, s.get("goalMs").asDouble(), "voicemail's own goal: the study's p95 NOTIFY-to-200");
        JsonNode trials = s.get("trials");
        assertTrue(trials.size() >= 3 && trials.size() <= 6, s.toString());
        assertEquals(8, trials.get(0).get("rate").asDouble(), "the search starts at start:");
        assertNotNull(s.get("capacity"), s.toString());
        double capacity = s.get("capacity").asDouble();
        double firstFailed = s.get("firstFailedRate").asDouble();
        assertTrue(capacity >= 2 && capacity <= 10.5, "at most the admission limit, 10 users/s: " + s);
        assertTrue(firstFailed > capacity && firstFailed <= 16, s.toString());
        boolean refusalsSeen = false;
        for (JsonNode t : trials) {
            if (!t.get("passed").asBoolean()) {
                refusalsSeen |= t.get("failures").asLong() > 0 || t.get("why").asText().contains("carried");
            } else {
                assertEquals("passed", t.get("why").asText());
                assertEquals(0, t.get("failures").asLong(), t.toString());
            }
        }
        assertTrue(refusalsSeen, "past the limit, users are turned away: " + trials);
        assertEquals(0, s.get("figuresAtCapacity").get("failedCalls").asLong(), s.toString());
        assertTrue(Files.isRegularFile(out.resolve(s.get("capacityRun").asText()).resolve("summary.json")));
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("**Capacity:** " + rate(capacity) + " users/s"), report);
        assertTrue(Files.readString(out.resolve("results.csv")).lines().findFirst().orElseThrow().endsWith("passed,verdict"));
        assertTrue(Files.readString(out.resolve("report.html")).contains("Capacity search"), "the chart");
    }

    /** A rate as the report writes it: 8, not 8.0. */
    private static String rate(double r) {
        return r == Math.rint(r) ? Long.toString((long) r) : Double.toString(r);
    }
}

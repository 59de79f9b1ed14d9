package perflab.voicemail.it;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11's overload through `perflab run voicemail` with every SIPp role real, at a small scale: the SUT admits
 * {@value #MAX_CALLS} users in a call, calls are held 1 s, so it can take {@value #CAPACITY} new users a second,
 * and users arrive at twice that. About half the clicks must be refused at the door (503), said so apart from
 * failures, while every call admitted succeeds on both sides, none is lost, and the admitted users' latencies stay
 * bounded.
 */
class VoicemailOverloadIT {
    static final int MAX_CALLS = 10;
    static final int CAPACITY = MAX_CALLS; // a place is held for a 1 s hold
    static final int RATE = 2 * CAPACITY;

    @TempDir
    Path work;

    @Test
    void atTwiceTheCapacityTheExcessClicksAreRefusedAndEveryAdmittedCallSucceeds() throws Exception {
        Path out = work.resolve("vm");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "voicemail", "--rate", Integer.toString(RATE),
                "--hold", "1s", "--max-calls", Integer.toString(MAX_CALLS), "--users", "2000", "--clients", "8",
                "--warmup", "3s", "--duration", "10s", "--heap", "128m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(180)), "refusals do not fail the run: " + p.err() + p.out());
            assertTrue(Pattern.compile("calls passed: .* 0 failed, [1-9][0-9]* refused").matcher(p.out()).find(),
                    "the calls check's line on the console: " + p.out());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        JsonNode f = summary.get("figures");
        // refused at the door, apart from the failed calls
        JsonNode refused = f.get("refusedClicks");
        double percent = refused.get("percent").asDouble();
        assertTrue(percent >= 20 && percent <= 80, "about half the clicks at twice the capacity: " + refused);
        assertEquals(0, f.get("failedCalls").asLong(), "a refused click is not a failed call: " + f);
        assertEquals(0, f.get("failedCallsByReason").size(), f.toString());
        assertEquals(0, f.get("sippFailedCalls").get("total").asLong(), "every admitted call succeeded at the peers: " + f);
        // the driver counts a refusal as the click's HTTP status error, and only that: pages and hang-ups all served
        JsonNode checkErrors = summary.get("byKind").get("check").get("errors");
        assertTrue(checkErrors.get("httpStatus").asLong() > 0, checkErrors.toString());
        assertEquals(summary.get("errors").get("total").asLong(), checkErrors.get("total").asLong(),
                "no error but the clicks': " + summary.get("errors") + " " + summary.get("byKind"));
        assertTrue(Files.readString(out.resolve("errors.txt")).contains("refused at the door"),
                "errors.txt says why: " + Files.readString(out.resolve("errors.txt")));
        JsonNode calls = summary.get("checks").get("calls");
        assertEquals("passed", calls.get("status").asText(), calls.toString());
        JsonNode details = calls.get("details");
        assertTrue(details.get("refused").asLong() >= refused.get("count").asLong(), "the whole run's: " + details);
        assertEquals(0, details.get("leaked").asLong(), "every admitted click ended, failed or is in its call: " + details);
        assertEquals(0, details.get("failedMidCall").asLong(), details.toString());
        assertEquals(0, details.get("failures").size(), details.toString());
        // the server ran at its capacity, not at the offered rate, and kept the admitted users fast
        double ops = f.get("convergedOperationsPerSecond").asDouble();
        assertTrue(ops > CAPACITY * 0.6 && ops < CAPACITY * 1.2, "about the capacity, " + CAPACITY + "/s: " + f);
        assertTrue(f.get("notifyTo200Ms").get("p99").asDouble() < 250, f.get("notifyTo200Ms").toString());
        double clickP99 = summary.get("byKind").get("check").get("latencyMs").get("p99").asDouble();
        assertTrue(clickP99 < 1000, "admitted clicks' p99 " + clickP99 + " ms");
    }
}

package perflab.voicemail.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.PerflabProcess;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** voicemail driven from two agents ({@code --agents local:2}): the platform's agents meet a workload's users. */
class VoicemailAgentsIT {
    @TempDir
    Path work;

    /**
     * Voicemail's users paced by an agenda on each agent, each agent dealing out its own block of the users, while
     * the SIPp phones beside the SUT answer them all: every call completes on both hang-up paths and the server's
     * account of the clicks (each user's session checked against the users file) matches what the agents sent.
     * Two agents driving one user at once would show as failed clicks or calls here.
     */
    @Test
    void voicemailUsersSplitOverTwoAgentsEachCompleteTheirCalls() throws Exception {
        Path out = work.resolve("voicemail");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "voicemail", "--rate", "6", "--hold", "2s",
                "--users", "1000", "--clients", "4", "--warmup", "3s", "--duration", "8s", "--heap", "128m",
                "--agents", "local:2", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(180)), p.err() + p.out());
        }
        JsonNode s = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        JsonNode details = VoicemailRunIT.everyCallCompleted(s);
        assertEquals(0, details.get("failedMidCall").asLong(), details.toString());
        assertEquals(0, details.get("leaked").asLong(), "every click ended, failed or is in its call: " + details);
        long sum = 0;
        for (JsonNode a : s.get("agents")) {
            assertTrue(a.get("requests").asLong() > 0, a.toString());
            sum += a.get("requests").asLong();
        }
        assertEquals(s.get("requests").asLong(), sum, "the merged requests are the agents' sum");
        long checks = s.get("byKind").get("check").get("requests").asLong();
        assertTrue(checks >= 6 * 8 * 0.6, "about 6 users a second clicked in the 8 s measured: " + checks);
        assertTrue(details.get("clicks").asLong() >= checks, "the server saw every click the agents measured: " + details);
    }
}

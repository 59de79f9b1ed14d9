package perflab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14's fail-over test: voicemail as a replication pair behind haproxy and Kamailio (CI installs them), sut-0
 * killed with SIGKILL in mid-hold. Its users' calls in progress end normally at sut-1 (the phones' BYEs and the
 * notifier's NOTIFYs through Kamailio, the pages' hang-ups through haproxy), new users whose home was sut-0 are served
 * there too, and with a copy before every message no call on hold is lost.
 */
class VoicemailFailoverIT {
    @TempDir
    Path work;

    @Test
    void killingAnInstanceMidHoldLosesNoCallWithEveryMessageReplication() throws Exception {
        Path out = work.resolve("failover");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "voicemail", "--instances", "2", "--replication",
                "every-message", "--rate", "4", "--hold", "6s", "--users", "1000", "--clients", "4", "--warmup", "3s",
                // users arrive every 250 ms from the drive's start (3 s of warm-up): at 8 s into the window user 44's
                // click would be in flight, its set-up's answers going to the dead instance, and lost (a call caught
                // in set-up is, by design); halfway to the next arrival, with 125 ms of slack on a busy CPU either
                // way, only calls on hold are there to take over
                "--duration", "20s", "--kill-instance-at", "8125ms", "--heap", "192m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(240)), p.err() + p.out());
            assertTrue(p.out().contains("killed SUT instance sut-0 with SIGKILL"), p.out());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertTrue(summary.get("complete").asBoolean(), "an expected kill does not end the run: " + summary.get("endReason"));
        JsonNode failover = summary.get("failover");
        assertEquals("sut-0", failover.get("killed").asText(), failover.toString());
        assertTrue(Math.abs(failover.get("atSecond").asDouble() - 8.125) < 1, failover.toString());
        JsonNode f = summary.get("figures");
        JsonNode taken = f.get("failover");
        // about 12 of sut-0's users were in a call at the kill (4/s, half of them its, held 6 s)
        assertTrue(taken.get("callsTakenOver").asLong() > 0, taken.toString());
        // every call on hold at the kill ends normally at the partner, and every later user of sut-0 is served there
        assertEquals(0, f.get("lostCalls").asLong(), f.toString() + " errors " + summary.get("errors"));
        JsonNode calls = summary.get("checks").get("calls");
        assertEquals("passed", calls.get("status").asText(), calls.toString());
        assertTrue(calls.get("details").get("takenOver").asLong() > 0, calls.toString());
        // how long until the partner served a call and a page from copies (its grid's view changes later: FD_ALL3
        // waits 8 s, which PairGridKillTest sees)
        JsonNode after = taken.get("afterKill");
        for (String step : new String[] {"firstCallTakenOverMs", "firstPageTakenOverMs"}) {
            assertTrue(after.has(step) && after.get(step).asLong() < 11_000, step + ": " + taken);
        }
        // the window in three: nothing failed in any part, and the parts cover the window
        JsonNode phases = failover.get("phases");
        assertTrue(failover.get("disturbedSeconds").asDouble() >= 0.9, failover.toString());
        long requests = 0;
        for (String part : new String[] {"before", "during", "after"}) {
            JsonNode p = phases.get(part);
            assertEquals(0, p.get("errors").asLong() + p.get("sipFailedCalls").asLong(), part + ": " + p);
            requests += p.get("requests").asLong();
        }
        assertEquals(summary.get("requests").asLong(), requests, phases.toString());
        assertEquals(phases.get("before").get("toSecond").asDouble(), phases.get("during").get("fromSecond").asDouble());
        assertTrue(phases.get("during").get("fromSecond").asDouble() <= 8.125
                && phases.get("during").get("toSecond").asDouble() > 8.125, phases.toString());
    }

    /**
     * Issue 14 item 5: the killed instance comes back ({@code --restart-instance-at}) on its ports. It rejoins its
     * partner (though the partner's view still holds its former self) and receives the copies the partner holds; the
     * proxies send its users back to it (haproxy's check and Kamailio's probe mark it up), and it takes their calls and
     * pages back from the copies while the partner lets them go; a call the partner is setting up stays there (the
     * home answers 503, Kamailio goes on to the partner). No call is lost around the return.
     */
    @Test
    void theKilledInstanceComesBackRejoinsItsPartnerAndTakesItsUsersBack() throws Exception {
        Path out = work.resolve("restart");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "voicemail", "--instances", "2", "--replication",
                "every-message", "--rate", "4", "--hold", "6s", "--users", "1000", "--clients", "4", "--warmup", "3s",
                "--duration", "30s", "--kill-instance-at", "8125ms", "--restart-instance-at", "15s", "--heap", "192m",
                "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(300)), p.err() + p.out());
            assertTrue(p.out().contains("started SUT instance sut-0 again as sut-0-restart"), p.out());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertTrue(summary.get("complete").asBoolean(), summary.get("endReason").toString());
        JsonNode failover = summary.get("failover");
        JsonNode restart = failover.get("restart");
        assertEquals("sut-0-restart", restart.get("process").asText(), failover.toString());
        assertTrue(Math.abs(restart.get("atSecond").asDouble() - 15) < 1, restart.toString());
        JsonNode back = summary.get("figures").get("failover").get("afterRestart");
        assertTrue(back.get("copiesReceivedAtJoin").asLong() > 0, "re-replicated at the join: " + back);
        // affinity back: Kamailio sends the users' dialog requests home again, haproxy their pages
        assertTrue(back.get("callsTakenBack").asLong() > 0, back.toString());
        assertTrue(back.get("webSessionsTakenBack").asLong() > 0, back.toString());
        assertTrue(back.get("callsHandedBack").asLong() > 0, "the partner let them go: " + back);
        // every call accounted for across both lives and the partner: none leaked (a call's start and end are counted
        // where they happened; the restarted instance once took calls back before its web side was built, and their
        // ends went uncounted: 2 LEAKED in a fresh-clone CI, now refused until the web side is there)
        JsonNode calls = summary.get("checks").get("calls");
        assertEquals(0, calls.get("details").get("leaked").asLong(), calls.toString());
        JsonNode phases = failover.get("phases");
        long requests = 0;
        for (String part : new String[] {"before", "during", "after", "duringRestart", "afterRestart"}) {
            requests += phases.get(part).get("requests").asLong();
        }
        assertEquals(summary.get("requests").asLong(), requests, phases.toString());
        // nothing lost around the return; around the kill, the test above holds that line: here a call caught in
        // set-up at the kill on a busy CPU (lost by design, counted twice: the click and the notifier's call) is
        // allowed, as it came once in CI
        long aroundTheKill = 0;
        for (String part : new String[] {"before", "during", "after"}) {
            JsonNode q = phases.get(part);
            aroundTheKill += q.get("errors").asLong() + q.get("sipFailedCalls").asLong();
        }
        assertTrue(aroundTheKill <= 2, phases.toString());
        for (String part : new String[] {"duringRestart", "afterRestart"}) {
            JsonNode q = phases.get(part);
            assertEquals(0, q.get("errors").asLong() + q.get("sipFailedCalls").asLong(), part + ": " + q);
        }
        assertTrue(summary.get("figures").get("lostCalls").asLong() <= 2, summary.get("figures").toString());
        // the restarted process is watched as one of the SUT's, its counters from its own start
        assertTrue(summary.get("processes").has("sut-0-restart"), summary.get("processes").toString());
    }

    /**
     * Issue 14 item 5: the converged proxy restarted mid-run ({@code --restart-proxy-at}): Kamailio and haproxy stopped
     * with SIGTERM and started again on their ports. The peers retransmit across the gap and the new Kamailio routes
     * their requests as the old one did (by the user, no state to lose); the driver's kept-alive connections are
     * closed under it, so a request in flight on one may fail, at most one a connection. No instance failed, so
     * affinity is unchanged: nothing is taken over.
     */
    @Test
    void aRestartedProxyKeepsEveryCallAndItsAffinity() throws Exception {
        Path out = work.resolve("proxy");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "voicemail", "--instances", "2", "--replication",
                "every-message", "--rate", "4", "--hold", "6s", "--users", "1000", "--clients", "4", "--warmup", "3s",
                "--duration", "20s", "--restart-proxy-at", "8125ms", "--heap", "192m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(240)), p.err() + p.out());
            assertTrue(p.out().contains("restarted the proxies [sip-proxy, http-proxy]"), p.out());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertTrue(summary.get("complete").asBoolean(), summary.get("endReason").toString());
        JsonNode restart = summary.get("proxyRestart");
        assertEquals("[\"sip-proxy-restart\",\"http-proxy-restart\"]", restart.get("processes").toString());
        assertTrue(Math.abs(restart.get("atSecond").asDouble() - 8.125) < 1, restart.toString());
        assertTrue(summary.get("processes").has("sip-proxy-restart"), summary.get("processes").toString());
        JsonNode f = summary.get("figures");
        assertEquals(0, f.get("sippFailedCalls").get("total").asLong(), "the peers' retransmissions bridge the gap: " + f);
        assertTrue(f.get("lostCalls").asLong() <= 4, "at most a request in flight on each of the 4 connections: "
                + summary.get("errors"));
        assertEquals(0, f.get("failover") == null ? 0 : f.get("failover").get("callsTakenOver").asLong());
        JsonNode calls = summary.get("checks").get("calls");
        assertEquals("passed", calls.get("status").asText(), calls.toString());
        assertEquals(0, calls.get("details").get("takenOver").asLong(), "affinity unchanged: " + calls);
        long requests = 0;
        for (String part : new String[] {"before", "during", "after"}) {
            requests += restart.get("phases").get(part).get("requests").asLong();
        }
        assertEquals(summary.get("requests").asLong(), requests);
    }
}

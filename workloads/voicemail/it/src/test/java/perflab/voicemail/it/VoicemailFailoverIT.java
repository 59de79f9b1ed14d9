package perflab.voicemail.it;

import perflab.testsupport.PerflabProcess;
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
 * there too, and with a copy before every message no call on hold is lost, nor a click caught in set-up.
 */
class VoicemailFailoverIT {
    @TempDir
    Path work;

    /**
     * The kill's instant: {@code -Dvoicemail.kill.seed=N} repeats a run; by default each run draws its own, so that CI
     * kills at instants nobody chose (issue 36: the test once timed its kill between two clicks, and on a busy CPU the
     * slack was gone).
     */
    private static long killSeed() {
        String given = System.getProperty("voicemail.kill.seed");
        return given != null ? Long.parseLong(given) : new java.util.SplittableRandom().nextLong(1, Long.MAX_VALUE);
    }

    @Test
    void killingAnInstanceAtAnyInstantLosesNoCallWithEveryMessageReplication() throws Exception {
        long seed = killSeed();
        String again = " (again: -Dvoicemail.kill.seed=" + seed + ")";
        Path out = work.resolve("failover");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "voicemail", "--instances", "2", "--replication",
                "every-message", "--rate", "4", "--hold", "6s", "--users", "1000", "--clients", "4", "--warmup", "3s",
                // anywhere in 4-16 s of the window: calls on hold, clicks in flight, set-ups half done at the peers
                "--duration", "20s", "--kill-instance-at", "random", "--seed", Long.toString(seed), "--heap", "192m",
                "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(240)), p.err() + p.out() + again);
            assertTrue(p.out().contains("killed SUT instance sut-0 with SIGKILL"), p.out() + again);
            assertTrue(p.out().contains("--kill-instance-at random: "), p.out() + again);
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertTrue(summary.get("complete").asBoolean(), "an expected kill does not end the run: " + summary.get("endReason")
                + again);
        JsonNode failover = summary.get("failover");
        assertEquals("sut-0", failover.get("killed").asText(), failover.toString());
        double at = failover.get("atSecond").asDouble();
        assertTrue(at > 3.5 && at < 17, "within 20-80 % of the window: " + failover + again);
        JsonNode f = summary.get("figures");
        JsonNode taken = f.get("failover");
        String context = f + " errors " + summary.get("errors") + again;
        // about 12 of sut-0's users were in a call at the kill (4/s, half of them its, held 6 s)
        assertTrue(taken.get("callsTakenOver").asLong() > 0, context);
        // every call on hold at the kill ends normally at the partner, every later user of sut-0 is served there, and a
        // click caught in set-up is resent by haproxy and answered once the partner set its call up again; what a
        // set-up caught by the kill left half done at a peer (its answer went to the dead instance) is counted apart
        long lost = f.get("lostCalls").asLong();
        long inSetup = taken.get("lostInSetup").asLong();
        // a request haproxy hands back to the browser unanswered, closing its kept-alive connection, when the dead
        // instance's server connection fails under it (docs/workloads/voicemail.md): the driver resends it once on a
        // new connection, as a browser does, and haproxy sends that to the partner; none is left failed
        long unanswered = taken.get("closedUnanswered").asLong();
        assertEquals(0, unanswered, "every request haproxy closed unanswered was resent and answered: " + context);
        assertTrue(taken.get("resentByBrowsers").asLong() <= 4, "at most one per client connection: " + context);
        assertEquals(lost, inSetup, "every lost call is one the kill caught in set-up: " + context);
        // a set-up in progress has its click waiting, one a driver connection (HTTP/1.1): at most 4 caught at once (3 were,
        // once, with clicks taking 2 s on a machine loaded 5 times over)
        assertTrue(taken.get("setupsRestarted").asLong() <= 4, context);
        assertTrue(unanswered <= 4, context);
        assertEquals(unanswered, taken.get("httpErrors").asLong(), "no click, page or hang-up answered with an error: "
                + context);
        JsonNode calls = summary.get("checks").get("calls");
        assertEquals("passed", calls.get("status").asText(), calls + again);
        assertTrue(calls.get("details").get("takenOver").asLong() > 0, calls.toString());
        // how long until the partner served a call and a page from copies (its grid's view changes later: FD_ALL3
        // waits 8 s, which PairGridKillTest sees); a figure is left out when its first take-over came before the kill
        // (on a loaded machine a probe or a check can take a slow instance for dead for a moment; the call figure was
        // absent once here, 8 calls taken over, with a load average of 10 on 2 CPUs), so one of the two is enough
        JsonNode after = taken.get("afterKill");
        assertTrue(after.has("firstCallTakenOverMs") || after.has("firstPageTakenOverMs"), taken + again);
        for (String step : new String[] {"firstCallTakenOverMs", "firstPageTakenOverMs"}) {
            assertTrue(!after.has(step) || after.get(step).asLong() < 11_000, step + ": " + taken + again);
        }
        // the window in three: no failure outside the set-ups the kill caught, and the parts cover the window
        JsonNode phases = failover.get("phases");
        assertTrue(failover.get("disturbedSeconds").asDouble() >= 0.9, failover.toString());
        long requests = 0;
        long failed = 0;
        long errors = 0;
        for (String part : new String[] {"before", "during", "after"}) {
            JsonNode p = phases.get(part);
            errors += p.get("errors").asLong();
            failed += sippFailedCalls(p);
            requests += p.get("requests").asLong();
        }
        assertEquals(0, phases.get("before").get("errors").asLong(), phases + again);
        assertTrue(errors <= unanswered, phases + again);
        assertTrue(failed <= inSetup, phases + again);
        assertEquals(summary.get("requests").asLong(), requests, phases.toString());
        assertEquals(phases.get("before").get("toSecond").asDouble(), phases.get("during").get("fromSecond").asDouble());
        assertTrue(phases.get("during").get("fromSecond").asDouble() <= at
                && phases.get("during").get("toSecond").asDouble() > at, phases.toString());
    }

    /**
     * Issue 14 item 5: the killed instance comes back ({@code --restart-instance-at}) on its ports. It rejoins its
     * partner (though the partner's view still holds its former self) and receives the copies the partner holds; the
     * proxies send its users back to it (haproxy's check and Kamailio's probe mark it up), and it takes their calls and
     * pages back from the copies while the partner lets them go; a call the partner is setting up stays there (the
     * home answers 503, Kamailio goes on to the partner). No call is lost around the return.
     */
    // Calls held 20 s in a 40 s window: those the partner took over at the kill (8 s) or set up for the instance's users
    // while it was away still have their hang-ups ahead when it is back, however long it takes to start. With 6 s
    // holds in 30 s a loaded machine's 12.8-14.5 s restart left 1-2 s of window and no moved web session to take back.
    @Test
    void theKilledInstanceComesBackRejoinsItsPartnerAndTakesItsUsersBack() throws Exception {
        Path out = work.resolve("restart");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "voicemail", "--instances", "2", "--replication",
                "every-message", "--rate", "4", "--hold", "20s", "--users", "1000", "--clients", "4", "--warmup", "3s",
                "--duration", "40s", "--kill-instance-at", "8125ms", "--restart-instance-at", "15s", "--heap", "192m",
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
        // nothing lost around the return; around the kill, the test above holds that line: here what a set-up caught
        // by the kill leaves at a peer (figures.failover.lostInSetup), or a request haproxy hands back unanswered, is
        // allowed, as it came once in CI
        long aroundTheKill = 0;
        for (String part : new String[] {"before", "during", "after"}) {
            JsonNode q = phases.get(part);
            aroundTheKill += q.get("errors").asLong() + sippFailedCalls(q);
        }
        assertTrue(aroundTheKill <= 2, phases.toString());
        for (String part : new String[] {"duringRestart", "afterRestart"}) {
            JsonNode q = phases.get(part);
            assertEquals(0, q.get("errors").asLong() + sippFailedCalls(q), part + ": " + q);
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
        // Two kinds of request can fail, each bounded by what the restart does: one in flight on each of the 4
        // kept-alive connections haproxy closes (io), and those sent while no proxy listened (connect refused: a
        // browser's user sees an error page too). The second grows with the gap, which a busy machine lengthens: it
        // is bounded by the pages a second before the restart times the gap perflab measured (readySeconds).
        JsonNode errors = summary.get("errors");
        JsonNode before = restart.get("phases").get("before");
        double pagesPerSecond = before.get("requests").asDouble()
                / Math.max(1e-3, before.get("toSecond").asDouble() - before.get("fromSecond").asDouble());
        long refusedBound = (long) Math.ceil(pagesPerSecond * restart.get("readySeconds").asDouble()) + 4;
        assertTrue(errors.get("io").asLong() <= 4, "at most a request in flight on each of the 4 connections: " + errors);
        assertTrue(errors.get("connect").asLong() <= refusedBound, "refused while the proxy was down, at most "
                + refusedBound + " (" + pagesPerSecond + " pages/s over " + restart.get("readySeconds") + " s): " + errors);
        assertTrue(f.get("lostCalls").asLong() <= errors.get("io").asLong() + errors.get("connect").asLong(),
                "a call is lost only with a failed request: " + f + " " + errors);
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

    /** The calls the SIPp peers saw fail in one part of the window: each load source's failedCalls, added. */
    static long sippFailedCalls(JsonNode phase) {
        long failed = 0;
        for (JsonNode load : phase.get("loads")) {
            failed += load.path("failedCalls").asLong();
        }
        return failed;
    }
}

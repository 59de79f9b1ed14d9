package perflab.voicemail.lean.sip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import perflab.testsupport.Poll;
import perflab.voicemail.lean.ConvergedCalls.CallEnd;
import perflab.core.process.LocalSockets;
import perflab.voicemail.lean.replica.PairGrid;
import perflab.voicemail.lean.replica.ReplicationMode;
import perflab.voicemail.lean.replica.SessionReplicas;
import perflab.voicemail.lean.replica.UserReplica;
import perflab.voicemail.sip.TransactionTimers;

/**
 * Issue 14 item 5: an instance comes back. Its partner, which took its user's call over, holds the copy; the instance
 * rejoins the pair (a new grid member on the same port), receives the copies by state transfer, takes the call back
 * from its copy when the user's next request reaches it, and the partner lets the call go without a message.
 */
class HandBackTest {

    private static VoiceMailCalls sut(TestPeers peers, SessionReplicas replicas) {
        return new VoiceMailCalls(new VoiceMailSipConfig("127.0.0.1", 0, peers.phone.localAddress(),
                peers.line.localAddress(), peers.notifier.localAddress(),
                TransactionTimers.scaled(Duration.ofMillis(TestPeers.T1)), 2), replicas);
    }

    /** The grid and the calls change state on threads of their own: every step here waits for its state. */
    private static void await(String what, Poll.Condition done) throws InterruptedException {
        Poll.until(what, Duration.ofSeconds(30), done);
    }

    private static UserReplica copy(PairGrid grid, String user) {
        byte[] value = grid.get(user);
        return value == null ? null : UserReplica.fromBytes(value);
    }

    @Test
    void theHomeTakesItsCallBackAndThePartnerLetsItGo() throws Exception {
        int[] ports = LocalSockets.freePorts(2);
        int a = ports[0];
        int b = ports[1];
        PairGrid partner = PairGrid.join("hand-back", "partner", b, a);
        try (TestPeers peers = new TestPeers()) {
            PairGrid home = PairGrid.join("hand-back", "home", a, b);
            await("the pair formed", () -> partner.members() == 2);
            assertEquals(0, home.heldAtJoin(), "a pair starting together holds nothing yet");
            VoiceMailCalls first = sut(peers, SessionReplicas.through(ReplicationMode.EVERY_MESSAGE, home));
            first.connect("u0000030", "node0web30", end -> { }).get(10, TimeUnit.SECONDS);
            await("the connected call's copy at the partner", () -> copy(partner, "u0000030") != null
                    && copy(partner, "u0000030").state().equals("CONNECTED"));
            first.close();
            home.close();

            SessionReplicas partnerReplicas = SessionReplicas.through(ReplicationMode.EVERY_MESSAGE, partner);
            try (VoiceMailCalls second = sut(peers, partnerReplicas)) {
                CompletableFuture<CallEnd> atPartner = new CompletableFuture<>();
                second.onTakeover((user, webSession) -> atPartner::complete);
                assertTrue(second.takeOver("u0000030"));
                // the call adopts its copy as its first task, and writes it one generation on at once
                await("the take-over wrote the copy one on", () -> copy(partner, "u0000030").generation() == 1);
                assertFalse(partnerReplicas.rejoined());

                // the home comes back on its port: the partner's copies come to it as it joins
                try (PairGrid again = PairGrid.join("hand-back", "home-again", a, b)) {
                    assertTrue(again.heldAtJoin() >= 1, "copies received at the join: " + again.heldAtJoin());
                    SessionReplicas homeReplicas = SessionReplicas.through(ReplicationMode.EVERY_MESSAGE, again);
                    assertTrue(homeReplicas.rejoined());
                    try (VoiceMailCalls third = sut(peers, homeReplicas)) {
                        // its SIP side is open before its web side is built: nothing is taken back until the web
                        // side is there to count the call's end (the request goes to the partner meanwhile)
                        assertFalse(third.takeOver("u0000030"), "taken back with no web side to end it");
                        assertEquals(1, second.liveUsers(), "the partner still holds the call");
                        CompletableFuture<CallEnd> atHome = new CompletableFuture<>();
                        third.onTakeover((user, webSession) -> {
                            assertEquals("node0web30", webSession);
                            return atHome::complete;
                        });
                        assertTrue(third.takeOver("u0000030"));
                        assertEquals(CallEnd.HANDED_BACK, atPartner.get(20, TimeUnit.SECONDS),
                                "the partner let the call go");
                        await("nobody left at the partner", () -> second.liveUsers() == 0);
                        Map<String, Long> p = second.counters();
                        assertEquals(1L, p.get("calls.handed-back"), p.toString());
                        assertEquals(0L, p.getOrDefault("calls.ended.web-hangup", 0L), "not an end: " + p);
                        assertFalse(peers.seen.contains("phone BYE") || peers.seen.contains("line BYE"),
                                "let go without a message: " + peers.seen);

                        third.hangUp("u0000030").get(10, TimeUnit.SECONDS);
                        assertEquals(CallEnd.WEB_HANGUP, atHome.get(20, TimeUnit.SECONDS));
                        assertTrue(peers.seen.contains("phone BYE") && peers.seen.contains("line BYE"),
                                peers.seen.toString());
                        Map<String, Long> h = third.counters();
                        assertEquals(1L, h.get("calls.taken-back"), h.toString());
                        assertEquals(0L, h.getOrDefault("calls.taken-over", 0L), h.toString());
                        assertTrue(h.get("calls.first-taken-back-epoch-ms") > 0, h.toString());
                        await("the copy gone at the partner once the call ended",
                                () -> partner.get("u0000030") == null);
                        assertEquals(0L, p.getOrDefault("replication.failures", 0L), p.toString());
                    }
                }
            }
        } finally {
            partner.close();
        }
    }
}

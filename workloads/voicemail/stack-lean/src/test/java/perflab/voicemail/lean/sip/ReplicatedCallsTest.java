package perflab.voicemail.lean.sip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import perflab.testsupport.Poll;
import perflab.voicemail.lean.ConvergedCalls.CallEnd;
import perflab.core.process.LocalSockets;
import perflab.voicemail.lean.replica.PairGrid;
import perflab.voicemail.lean.replica.ReplicationMode;
import perflab.voicemail.lean.replica.SessionReplicas;
import perflab.voicemail.lean.replica.UserReplica;
import perflab.voicemail.sip.DialogState;
import perflab.voicemail.sip.TransactionTimers;

/**
 * The SIP side's copies of a call on the partner's grid (both members in this JVM, on loopback TCP): what each
 * replication mode writes, and that the copy goes when the call ends.
 */
class ReplicatedCallsTest {
    private static PairGrid home;
    private static PairGrid partner;

    @BeforeAll
    static void pair() throws Exception {
        int[] ports = LocalSockets.freePorts(2);
        int a = ports[0];
        int b = ports[1];
        home = PairGrid.join("calls-test", "home", a, b);
        partner = PairGrid.join("calls-test", "partner", b, a);
        Poll.until("the pair to form", Duration.ofSeconds(60), partner::members, n -> n == 2);
    }

    @AfterAll
    static void unpair() {
        partner.close();
        home.close();
    }


    private static VoiceMailCalls sut(TestPeers peers, SessionReplicas replicas) {
        return new VoiceMailCalls(new VoiceMailSipConfig("127.0.0.1", 0, peers.phone.localAddress(),
                peers.line.localAddress(), peers.notifier.localAddress(),
                TransactionTimers.scaled(Duration.ofMillis(TestPeers.T1)), 2), replicas);
    }

    /** The partner's copy of {@code user} once {@code state} is in it (the grid writes asynchronously). */
    private static UserReplica awaitState(String user, String state) throws InterruptedException {
        return Poll.until("the partner's copy of " + user + " in state " + state, Duration.ofSeconds(30),
                () -> copy(user), replica -> replica != null && replica.state().equals(state));
    }

    /** The partner's copy of {@code user}; null when it holds none. */
    private static UserReplica copy(String user) {
        byte[] value = partner.get(user);
        return value == null ? null : UserReplica.fromBytes(value);
    }

    private static void awaitGone(String user) throws InterruptedException {
        Poll.until("the copy of " + user + " to be gone once the call ended", Duration.ofSeconds(30),
                () -> partner.get(user) == null);
    }

    @Test
    void everyMessageKeepsAConnectedCallWithItsThreeDialogsAtThePartner() throws Exception {
        SessionReplicas replicas = SessionReplicas.through(ReplicationMode.EVERY_MESSAGE, home);
        try (TestPeers peers = new TestPeers(); VoiceMailCalls calls = sut(peers, replicas)) {
            CompletableFuture<CallEnd> ended = new CompletableFuture<>();
            calls.connect("u0000010", "node0web10", ended::complete).get(10, TimeUnit.SECONDS);
            UserReplica copy = awaitState("u0000010", "CONNECTED");
            assertEquals("node0web10", copy.webSession());
            assertEquals(3, copy.flags() & 3, "subscription accepted and notified");
            DialogState subscription = copy.dialogs().get(0);
            DialogState phone = copy.dialogs().get(1);
            DialogState line = copy.dialogs().get(2);
            assertNotNull(subscription);
            assertTrue(phone.acked() && line.acked(), "both legs ACKed in the copy");
            assertTrue(phone.inviteCSeq() > 0 && phone.remoteTarget().contains("u0000010"), phone.toString());
            assertTrue(subscription.remoteCSeq() >= 1, "the notifier's NOTIFY counted: " + subscription);
            // a copy before the SUBSCRIBE, one before the two messages the first NOTIFY sends (its 200 and the
            // phone's INVITE: the notifier here answers the SUBSCRIBE before it notifies), one before the line's
            // INVITE, one when connected
            long writes = calls.counters().get("replication.writes");
            assertEquals(4L, writes, "writes");

            calls.hangUp("u0000010").get(10, TimeUnit.SECONDS);
            assertEquals(CallEnd.WEB_HANGUP, ended.get(10, TimeUnit.SECONDS));
            awaitGone("u0000010");
            Map<String, Long> c = calls.counters();
            assertTrue(c.get("replication.writes") >= writes + 3, "BYE, BYE, unsubscribe: " + c);
            assertEquals(1L, c.get("replication.removes"));
            assertEquals(0L, c.get("replication.failures"));
            assertEquals(2L, c.get("replication.members"));
        }
    }

    @Test
    void endOfServiceCopiesTheConnectedCallOnly() throws Exception {
        SessionReplicas replicas = SessionReplicas.through(ReplicationMode.END_OF_SERVICE, home);
        try (TestPeers peers = new TestPeers(); VoiceMailCalls calls = sut(peers, replicas)) {
            peers.phoneHangsUp.add("u0000011");
            CompletableFuture<CallEnd> ended = new CompletableFuture<>();
            calls.connect("u0000011", "node0web11", ended::complete).get(10, TimeUnit.SECONDS);
            assertEquals(CallEnd.PHONE_HANGUP, ended.get(10, TimeUnit.SECONDS));
            awaitGone("u0000011");
            Map<String, Long> c = calls.counters();
            assertEquals(1L, c.get("replication.writes"), "one copy, when the call connected: " + c);
            assertEquals(1L, c.get("replication.removes"));
        }
    }

    /**
     * The home instance goes (its stack closed: no BYE, no unsubscription); its partner takes the connected call
     * over from the copy, as it does when the browser's hang-up reaches it, and the hang-up ends both legs and the
     * subscription from there, in the dialogs the home made.
     */
    @Test
    void thePartnerTakesAConnectedCallOverAndHangsItUp() throws Exception {
        try (TestPeers peers = new TestPeers()) {
            VoiceMailCalls first = sut(peers, SessionReplicas.through(ReplicationMode.EVERY_MESSAGE, home));
            first.connect("u0000020", "node0web20", end -> { }).get(10, TimeUnit.SECONDS);
            awaitState("u0000020", "CONNECTED");
            first.close();
            try (VoiceMailCalls second = sut(peers, SessionReplicas.through(ReplicationMode.EVERY_MESSAGE, partner))) {
                CompletableFuture<CallEnd> ended = new CompletableFuture<>();
                java.util.List<String> webSessions = new java.util.concurrent.CopyOnWriteArrayList<>();
                second.onTakeover((user, webSession) -> {
                    webSessions.add(user + " " + webSession);
                    return ended::complete;
                });
                assertTrue(!second.takeOver("u0000099"), "no copy, no call");
                assertTrue(second.takeOver("u0000020"));
                assertTrue(second.takeOver("u0000020"), "taken over once, here since");
                assertEquals(java.util.List.of("u0000020 node0web20"), webSessions);
                assertEquals(1, second.liveUsers());
                second.hangUp("u0000020").get(10, TimeUnit.SECONDS);
                assertEquals(CallEnd.WEB_HANGUP, ended.get(10, TimeUnit.SECONDS));
                assertTrue(peers.seen.contains("phone BYE") && peers.seen.contains("line BYE"), peers.seen.toString());
                assertTrue(peers.seen.contains("notifier SUBSCRIBE Expires: 0"), peers.seen.toString());
                Map<String, Long> c = second.counters();
                assertEquals(1L, c.get("calls.taken-over"), c.toString());
                assertEquals(3L, c.get("sip.dialogs.adopted"), c.toString());
                assertEquals(1L, c.get("calls.ended.web-hangup"), c.toString());
                awaitGone("u0000020");
            }
        }
    }

    @Test
    void offWritesNothingAndShowsNoReplicationCounters() throws Exception {
        try (TestPeers peers = new TestPeers(); VoiceMailCalls calls = sut(peers, SessionReplicas.off())) {
            CompletableFuture<CallEnd> ended = new CompletableFuture<>();
            calls.connect("u0000012", ended::complete).get(10, TimeUnit.SECONDS);
            calls.hangUp("u0000012").get(10, TimeUnit.SECONDS);
            ended.get(10, TimeUnit.SECONDS);
            assertNull(partner.get("u0000012"));
            assertTrue(calls.counters().keySet().stream().noneMatch(k -> k.startsWith("replication.")));
        }
    }
}

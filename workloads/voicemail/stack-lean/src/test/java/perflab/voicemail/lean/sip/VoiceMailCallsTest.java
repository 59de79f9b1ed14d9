package perflab.voicemail.lean.sip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import perflab.testsupport.Poll;
import perflab.voicemail.lean.ConvergedCalls.CallEnd;
import perflab.voicemail.lean.ConvergedCalls.CallFailure;
import perflab.voicemail.sip.TransactionTimers;

/** The SIP side's flow (docs/workloads/voicemail.md steps 1-21) against Java peers on loopback. */
class VoiceMailCallsTest {
    private static VoiceMailCalls sut(TestPeers peers) {
        return new VoiceMailCalls(new VoiceMailSipConfig("127.0.0.1", 0,
                peer(peers.address(peers.phone)), peer(peers.address(peers.line)),
                peer(peers.address(peers.notifier)),
                TransactionTimers.scaled(Duration.ofMillis(TestPeers.T1)), 2));
    }

    /** Waits until no user is in a call and no dialog is live; the counters are in a failure's message. */
    private static void awaitNoLiveState(VoiceMailCalls calls, long millis) throws InterruptedException {
        Poll.until("no live user and no live dialog", Duration.ofMillis(millis),
                () -> new Live(calls.liveUsers(), calls.counters()),
                live -> live.users() == 0 && live.counters().get("sip.dialogs.live") == 0);
    }

    private record Live(int users, Map<String, Long> counters) {
    }

    @Test
    void webHangUpRunsTheWholeFlow() throws Exception {
        try (TestPeers peers = new TestPeers(); VoiceMailCalls calls = sut(peers)) {
            CompletableFuture<CallEnd> ended = new CompletableFuture<>();
            calls.connect("u0000001", ended::complete).get(10, TimeUnit.SECONDS);
            assertEquals(1, calls.liveUsers());
            assertEquals(TestPeers.OFFER + "|application/sdp", peers.lineOffers.poll(), "the phone's offer");
            assertEquals(TestPeers.ANSWER, Poll.until("the phone's ACK", Duration.ofSeconds(30), peers.phoneAcks::poll,
                    ack -> ack != null), "the line's answer in the ACK to the phone");
            assertThrows(ExecutionException.class, () -> calls.connect("u0000001", e -> { }).get(5, TimeUnit.SECONDS),
                    "busy");
            calls.hangUp("u0000001").get(10, TimeUnit.SECONDS);
            assertEquals(CallEnd.WEB_HANGUP, ended.get(10, TimeUnit.SECONDS));
            assertTrue(peers.seen.contains("phone BYE") && peers.seen.contains("line BYE"), peers.seen.toString());
            assertTrue(peers.seen.contains("notifier SUBSCRIBE Expires: 0"), peers.seen.toString());
            awaitNoLiveState(calls, 5_000);
            Map<String, Long> c = calls.counters();
            assertEquals(1L, c.get("calls.connected"));
            assertEquals(1L, c.get("calls.ended.web-hangup"));
            // SUBSCRIBE, INVITE x2, ACK x2, BYE x2, SUBSCRIBE; 200 to two NOTIFYs
            assertEquals(2L, c.get("sip.out.requests.INVITE"));
            assertEquals(2L, c.get("sip.out.requests.SUBSCRIBE"));
            assertEquals(2L, c.get("sip.in.requests.NOTIFY"));
        }
    }

    @Test
    void phoneHangUpEndsTheLineAndTheSubscription() throws Exception {
        try (TestPeers peers = new TestPeers(); VoiceMailCalls calls = sut(peers)) {
            peers.phoneHangsUp.add("u0000002");
            CompletableFuture<CallEnd> ended = new CompletableFuture<>();
            calls.connect("u0000002", ended::complete).get(10, TimeUnit.SECONDS);
            assertEquals(CallEnd.PHONE_HANGUP, ended.get(10, TimeUnit.SECONDS));
            assertTrue(peers.seen.contains("line BYE"), peers.seen.toString());
            assertTrue(peers.seen.contains("notifier SUBSCRIBE Expires: 0"), peers.seen.toString());
            awaitNoLiveState(calls, 5_000);
            assertEquals(1L, calls.counters().get("calls.ended.phone-hangup"));
            ExecutionException noCall = assertThrows(ExecutionException.class,
                    () -> calls.hangUp("u0000002").get(5, TimeUnit.SECONDS));
            assertEquals("no-call", ((CallFailure) noCall.getCause()).reason());
        }
    }

    @Test
    void notifyBeforeTheTwoHundredStillConnects() throws Exception {
        try (TestPeers peers = new TestPeers(); VoiceMailCalls calls = sut(peers)) {
            peers.notifyFirst = true;
            CompletableFuture<CallEnd> ended = new CompletableFuture<>();
            calls.connect("u0000003", ended::complete).get(10, TimeUnit.SECONDS);
            assertEquals(1L, calls.counters().get("sip.notify-before-2xx"));
            calls.hangUp("u0000003").get(10, TimeUnit.SECONDS);
            assertEquals(CallEnd.WEB_HANGUP, ended.get(10, TimeUnit.SECONDS));
            awaitNoLiveState(calls, 5_000);
        }
    }

    @Test
    void aRejectingLineFailsTheCallAndTearsDownThePhoneAndTheSubscription() throws Exception {
        try (TestPeers peers = new TestPeers(); VoiceMailCalls calls = sut(peers)) {
            peers.lineStatus = 486;
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> calls.connect("u0000004", end -> { }).get(10, TimeUnit.SECONDS));
            CallFailure failure = assertInstanceOf(CallFailure.class, e.getCause());
            assertEquals("line-rejected", failure.reason());
            assertTrue(peers.seen.contains("phone BYE"), peers.seen.toString());
            assertTrue(peers.seen.contains("notifier SUBSCRIBE Expires: 0"), peers.seen.toString());
            assertEquals(1L, calls.counters().get("calls.failures.line-rejected"));
            awaitNoLiveState(calls, 5_000);
        }
    }

    @Test
    void anUnreachablePhoneTimesOut() throws Exception {
        try (TestPeers peers = new TestPeers()) {
            int silent;
            try (java.net.DatagramSocket socket = new java.net.DatagramSocket(0,
                    java.net.InetAddress.getLoopbackAddress())) {
                silent = socket.getLocalPort(); // closed again: nobody answers there
            }
            try (VoiceMailCalls calls = new VoiceMailCalls(new VoiceMailSipConfig("127.0.0.1", 0,
                    peer("127.0.0.1:" + silent), peer(peers.address(peers.line)),
                    peer(peers.address(peers.notifier)),
                    TransactionTimers.scaled(Duration.ofMillis(TestPeers.T1)), 2))) {
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> calls.connect("u0000005", end -> { }).get(64 * TestPeers.T1 + 10_000,
                                TimeUnit.MILLISECONDS));
                assertEquals("phone-timeout", ((CallFailure) e.getCause()).reason());
                awaitNoLiveState(calls, 5_000);
            }
        }
    }

    @Test
    void manyUsersInParallelLeaveNothingBehind() throws Exception {
        try (TestPeers peers = new TestPeers(); VoiceMailCalls calls = sut(peers)) {
            int users = 60;
            List<CompletableFuture<CallEnd>> ends = new ArrayList<>();
            List<CompletableFuture<Void>> connects = new ArrayList<>();
            for (int i = 0; i < users; i++) {
                String user = String.format("u%07d", 100 + i);
                if (i % 2 == 0) {
                    peers.phoneHangsUp.add(user);
                }
                CompletableFuture<CallEnd> ended = new CompletableFuture<>();
                ends.add(ended);
                connects.add(calls.connect(user, ended::complete));
            }
            CompletableFuture.allOf(connects.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            for (int i = 1; i < users; i += 2) {
                calls.hangUp(String.format("u%07d", 100 + i)).get(10, TimeUnit.SECONDS);
            }
            for (int i = 0; i < users; i++) {
                assertEquals(i % 2 == 0 ? CallEnd.PHONE_HANGUP : CallEnd.WEB_HANGUP, ends.get(i).get(20, TimeUnit.SECONDS));
            }
            awaitNoLiveState(calls, 10_000);
            Map<String, Long> c = calls.counters();
            assertEquals((long) users, c.get("calls.connected"));
            assertTrue(c.keySet().stream().noneMatch(k -> k.startsWith("calls.failures")), c.toString());
            // every transaction ends by its timers (64 x T1 at most)
            Poll.until("no live transaction", Duration.ofSeconds(15), () -> calls.counters().get("sip.transactions.live"),
                    live -> live == 0);
        }
    }

    /** A test peer's "host:port" as an address (the SUT gets its peers checked by VoicemailSettings). */
    private static java.net.InetSocketAddress peer(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new java.net.InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }
}

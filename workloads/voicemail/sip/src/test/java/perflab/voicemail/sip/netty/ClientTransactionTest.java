package perflab.voicemail.sip.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.ClientTransaction;
import perflab.voicemail.sip.Header;
import perflab.voicemail.sip.SerialExecutor;
import perflab.voicemail.sip.SipResponse;
import perflab.voicemail.sip.SipTimeoutException;

/** Client transactions against a raw UDP peer: retransmissions, absorbed answers, timeouts, the ACKs. */
class ClientTransactionTest {
    private static final String OFFER = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\n";
    private static final String ANSWER = "v=0\r\no=- 2 2 IN IP4 127.0.0.1\r\ns=-\r\n";

    @Test
    void nonInviteRetransmitsUntilAnsweredAndAbsorbsRepeatedAnswers() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("NOTIFY")); RawPeer peer = new RawPeer()) {
            ClientTransaction tx = sut.stack.send(sut.request("OPTIONS", peer, List.of(), Body.NONE),
                    new SerialExecutor(sut.pool), null);
            String first = peer.expect(m -> m.startsWith("OPTIONS "), 2_000, "OPTIONS");
            assertTrue(RawPeer.header(first, "Via").contains(";branch=z9hG4bK"), first);
            assertTrue(RawPeer.header(first, "Via").endsWith(";rport"), first);
            assertEquals("70", RawPeer.header(first, "Max-Forwards"));
            assertEquals("0", RawPeer.header(first, "Content-Length"));
            // Timer E: copies at T1, 2T1, 4T1...; wait for two
            String again = peer.expect(m -> m.startsWith("OPTIONS "), 2_000, "first retransmission");
            peer.expect(m -> m.startsWith("OPTIONS "), 2_000, "second retransmission");
            assertEquals(first, again);
            AtomicInteger seen = new AtomicInteger();
            tx.finalResponse().thenRun(seen::incrementAndGet);
            String ok = RawPeer.response(first, "200 OK", "p1", "", "");
            peer.send(ok, sut.port());
            peer.send(ok, sut.port());
            peer.send(ok, sut.port());
            SipResponse response = tx.finalResponse().get(2, TimeUnit.SECONDS);
            assertEquals(200, response.status());
            assertTrue(peer.collect(4 * StackFixture.T1 * 8).stream().noneMatch(m -> m.startsWith("OPTIONS ")),
                    "no retransmission after the final response");
            assertEquals(1, seen.get());
            assertTrue(sut.counter("sip.retransmissions.sent") >= 2);
            assertEquals(2, sut.counter("sip.retransmissions.absorbed"));
            sut.awaitEmptyTables(5_000, "Timer K");
        }
    }

    @Test
    void timerFFailsTheFutureAndForgetsTheTransaction() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("NOTIFY")); RawPeer peer = new RawPeer()) {
            long start = System.nanoTime();
            ClientTransaction tx = sut.stack.send(sut.request("OPTIONS", peer, List.of(), Body.NONE),
                    new SerialExecutor(sut.pool), null);
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> tx.finalResponse().get(StackFixture.TIMEOUT + 10_000, TimeUnit.MILLISECONDS));
            assertInstanceOf(SipTimeoutException.class, e.getCause());
            long took = (System.nanoTime() - start) / 1_000_000;
            assertTrue(took >= StackFixture.TIMEOUT - 50, "Timer F is 64 x T1, took " + took);
            // T1 doubling to T2 over 64 x T1: 50, 100, 200, 400, 400... about 10 copies
            assertTrue(sut.counter("sip.retransmissions.sent") >= 6, sut.counters().toString());
            assertEquals(1, sut.counter("sip.timeouts"));
            sut.awaitEmptyTables(2_000, "the timed-out transaction removed");
        }
    }

    @Test
    void inviteRetransmittedTwoHundredGetsTheSameAckAndTheApplicationSeesOne() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("BYE")); RawPeer phone = new RawPeer()) {
            ClientTransaction tx = sut.stack.send(sut.request("INVITE", phone, List.of(), Body.NONE),
                    new SerialExecutor(sut.pool), sut.handler);
            String invite = phone.expect(m -> m.startsWith("INVITE "), 2_000, "INVITE");
            assertNotNull(RawPeer.header(invite, "Contact"));
            AtomicInteger seen = new AtomicInteger();
            tx.finalResponse().thenRun(seen::incrementAndGet);
            phone.send(RawPeer.response(invite, "100 Trying", null, "", ""), sut.port());
            phone.send(RawPeer.response(invite, "180 Ringing", "ph", "", ""), sut.port());
            String ok = RawPeer.response(invite, "200 OK", "ph",
                    "Contact: <sip:u1@127.0.0.1:" + phone.port() + ">\r\n", OFFER);
            phone.send(ok, sut.port());
            SipResponse response = tx.finalResponse().get(2, TimeUnit.SECONDS);
            assertEquals(OFFER, new String(response.body()));
            // the 2xx "was lost": the phone repeats it before any ACK; nothing to repeat yet
            phone.send(ok, sut.port());
            assertNull(phone.receive(300), "no ACK before the application sends one");
            tx.dialog().ack(Body.of("application/sdp", ANSWER));
            String ack = phone.expect(m -> m.startsWith("ACK "), 2_000, "ACK");
            assertEquals(ANSWER, RawPeer.body(ack));
            assertTrue(RawPeer.header(ack, "CSeq").equals("1 ACK"), ack);
            assertTrue(RawPeer.startLine(ack).contains("sip:u1@127.0.0.1:" + phone.port()), "to the Contact");
            for (int i = 0; i < 3; i++) {
                phone.send(ok, sut.port());
                assertEquals(ack, phone.expect(m -> m.startsWith("ACK "), 2_000, "the same ACK again"));
            }
            assertTrue(phone.collect(500).stream().noneMatch(m -> m.startsWith("INVITE ")), "INVITE not resent");
            assertEquals(1, seen.get(), "the application saw one 200");
            assertTrue(sut.counter("sip.retransmissions.absorbed") >= 4);
            // BYE in the dialog ends it
            ClientTransaction bye = tx.dialog().send("BYE", List.of(), Body.NONE);
            String byeRequest = phone.expect(m -> m.startsWith("BYE "), 2_000, "BYE");
            assertEquals("2 BYE", RawPeer.header(byeRequest, "CSeq"));
            assertEquals("ph", RawPeer.tag(RawPeer.header(byeRequest, "To")));
            phone.send(RawPeer.response(byeRequest, "200 OK", null, "", ""), sut.port());
            assertEquals(200, bye.finalResponse().get(2, TimeUnit.SECONDS).status());
            assertTrue(tx.dialog().terminated());
            sut.awaitEmptyTables(10_000, "the BYE's end");
        }
    }

    @Test
    void inviteErrorIsAckedByTheTransactionEveryTimeItComes() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("BYE")); RawPeer phone = new RawPeer()) {
            ClientTransaction tx = sut.stack.send(sut.request("INVITE", phone, List.of(), Body.NONE),
                    new SerialExecutor(sut.pool), sut.handler);
            String invite = phone.expect(m -> m.startsWith("INVITE "), 2_000, "INVITE");
            String busy = RawPeer.response(invite, "486 Busy Here", "ph", "", "");
            phone.send(busy, sut.port());
            String ack = phone.expect(m -> m.startsWith("ACK "), 2_000, "ACK");
            assertEquals(RawPeer.header(invite, "Via"), RawPeer.header(ack, "Via"), "the INVITE's branch");
            assertEquals("ph", RawPeer.tag(RawPeer.header(ack, "To")));
            phone.send(busy, sut.port());
            assertEquals(ack, phone.expect(m -> m.startsWith("ACK "), 2_000, "ACK again"));
            assertEquals(486, tx.finalResponse().get(2, TimeUnit.SECONDS).status());
            assertNull(tx.dialog());
        }
    }

    @Test
    void timerBRetransmitsTheInviteDoublingAndGivesUp() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("BYE")); RawPeer phone = new RawPeer()) {
            ClientTransaction tx = sut.stack.send(sut.request("INVITE", phone, List.of(), Body.NONE),
                    new SerialExecutor(sut.pool), sut.handler);
            List<String> copies = phone.collect(StackFixture.TIMEOUT + 1_000);
            // 0, 50, 150, 350, 750, 1550, 3150 ms: 7 copies within 64 x T1 (Timer A does not stop at T2)
            assertTrue(copies.size() >= 5 && copies.size() <= 8, copies.size() + " copies");
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> tx.finalResponse().get(5, TimeUnit.SECONDS));
            assertInstanceOf(SipTimeoutException.class, e.getCause());
        }
    }

    @Test
    void provisionalAnswerStopsRetransmissions() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("BYE")); RawPeer phone = new RawPeer()) {
            sut.stack.send(sut.request("INVITE", phone, List.of(new Header("Subject", "x")), Body.NONE),
                    new SerialExecutor(sut.pool), sut.handler);
            String invite = phone.expect(m -> m.startsWith("INVITE "), 2_000, "INVITE");
            phone.send(RawPeer.response(invite, "180 Ringing", "ph", "", ""), sut.port());
            List<String> after = phone.collect(1_000);
            assertTrue(after.size() <= 1, "at most one copy crossed the 180: " + after.size());
        }
    }
}

package perflab.voicemail.sip.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.ClientTransaction;
import perflab.voicemail.sip.Header;
import perflab.voicemail.sip.SerialExecutor;
import perflab.voicemail.sip.ServerTransaction;

/** Server transactions and subscriptions against a raw UDP peer. */
class ServerSideTest {
    static String request(String method, int sutPort, String branch, String callId, String fromTag, String toTag,
                          long cseq, String extra, String body) {
        return method + " sip:voicemail@127.0.0.1:" + sutPort + " SIP/2.0\r\n"
                + "Via: SIP/2.0/UDP 127.0.0.1:9;branch=" + branch + ";rport\r\n"
                + "Max-Forwards: 70\r\n"
                + "From: <sip:u1@127.0.0.1>;tag=" + fromTag + "\r\n"
                + "To: <sip:voicemail@127.0.0.1>" + (toTag == null ? "" : ";tag=" + toTag) + "\r\n"
                + "Call-ID: " + callId + "\r\n"
                + "CSeq: " + cseq + " " + method + "\r\n"
                + extra
                + (body.isEmpty() ? "" : "Content-Type: application/simple-message-summary\r\n")
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;
    }

    @Test
    void retransmittedRequestGetsTheLastResponseAndReachesTheApplicationOnce() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("OPTIONS")); RawPeer peer = new RawPeer()) {
            String options = request("OPTIONS", sut.port(), "z9hG4bK-o1", "c1@x", "f1", null, 1, "", "");
            peer.send(options, sut.port());
            peer.send(options, sut.port());
            ServerTransaction tx = sut.nextRequest(2_000);
            assertNotNull(tx);
            tx.respond(200, "OK");
            String ok = peer.expect(m -> m.startsWith("SIP/2.0 200"), 2_000, "200");
            assertTrue(RawPeer.header(ok, "Via").contains("received=127.0.0.1"), ok);
            assertTrue(RawPeer.header(ok, "Via").contains("rport=" + peer.port()), ok);
            for (int i = 0; i < 3; i++) {
                peer.send(options, sut.port());
                assertEquals(ok, peer.expect(m -> m.startsWith("SIP/2.0"), 2_000, "the same 200"));
            }
            assertNull(sut.nextRequest(300), "the application saw the request once");
            assertEquals(4, sut.counter("sip.retransmissions.absorbed"));
            sut.awaitEmptyTables(StackFixture.TIMEOUT + 3_000, "Timer J");
        }
    }

    @Test
    void inviteServerSendsTryingAndRepeatsItsTwoHundredUntilTheAck() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("INVITE", "ACK", "BYE")); RawPeer sip = new RawPeer()) {
            String invite = request("INVITE", sut.port(), "z9hG4bK-i1", "c2@x", "f2", null, 1,
                    "Contact: <sip:u1@127.0.0.1:" + sip.port() + ">\r\n", "");
            sip.send(invite, sut.port());
            sip.expect(m -> m.startsWith("SIP/2.0 100"), 2_000, "100 Trying");
            ServerTransaction tx = sut.nextRequest(2_000);
            tx.respond(180, "Ringing");
            String ringing = sip.expect(m -> m.startsWith("SIP/2.0 180"), 2_000, "180");
            sip.send(invite, sut.port());
            assertEquals(ringing, sip.expect(m -> m.startsWith("SIP/2.0"), 2_000, "180 again"));
            tx.respond(200, "OK", List.of(), Body.of("application/sdp", "v=0\r\n"));
            String ok = sip.expect(m -> m.startsWith("SIP/2.0 200"), 2_000, "200");
            assertEquals(RawPeer.tag(RawPeer.header(ringing, "To")), RawPeer.tag(RawPeer.header(ok, "To")));
            assertNotNull(RawPeer.header(ok, "Contact"));
            assertEquals(ok, sip.expect(m -> m.startsWith("SIP/2.0 200"), 2_000, "200 repeated"));
            String toTag = RawPeer.tag(RawPeer.header(ok, "To"));
            String ack = request("ACK", sut.port(), "z9hG4bK-a1", "c2@x", "f2", toTag, 1, "", "");
            sip.send(ack, sut.port());
            sip.send(ack, sut.port());
            assertNotNull(sut.acks.poll(2, TimeUnit.SECONDS));
            assertTrue(sip.collect(1_000).stream().noneMatch(m -> m.startsWith("SIP/2.0 200")), "stops after ACK");
            assertNull(sut.acks.poll(200, TimeUnit.MILLISECONDS), "the application saw one ACK");
            // the peer's BYE in the dialog: 200, and the dialog ends
            sip.send(request("BYE", sut.port(), "z9hG4bK-b1", "c2@x", "f2", toTag, 2, "", ""), sut.port());
            ServerTransaction bye = sut.nextRequest(2_000);
            assertSame(tx.dialog(), bye.dialog());
            bye.respond(200, "OK");
            sip.expect(m -> m.startsWith("SIP/2.0 200") && m.contains("BYE"), 2_000, "200 to BYE");
            sut.awaitEmptyTables(StackFixture.TIMEOUT + 3_000, "the BYE's Timer J and the INVITE's end");
        }
    }

    @Test
    void inviteErrorIsRepeatedUntilItsAck() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("INVITE", "ACK")); RawPeer sip = new RawPeer()) {
            String invite = request("INVITE", sut.port(), "z9hG4bK-i2", "c3@x", "f3", null, 1, "", "");
            sip.send(invite, sut.port());
            sut.nextRequest(2_000).respond(486, "Busy Here");
            String busy = sip.expect(m -> m.startsWith("SIP/2.0 486"), 2_000, "486");
            assertEquals(busy, sip.expect(m -> m.startsWith("SIP/2.0 486"), 2_000, "486 again (Timer G)"));
            sip.send(request("ACK", sut.port(), "z9hG4bK-i2", "c3@x", "f3", RawPeer.tag(RawPeer.header(busy, "To")),
                    1, "", ""), sut.port());
            assertTrue(sip.collect(1_000).stream().noneMatch(m -> m.startsWith("SIP/2.0 486")));
            assertNull(sut.acks.poll(100, TimeUnit.MILLISECONDS), "an error's ACK is the transaction's");
            sut.awaitEmptyTables(StackFixture.TIMEOUT + 3_000, "Timer I after the ACK");
        }
    }

    @Test
    void notifyBeforeTheTwoHundredMakesTheDialogAndItsRetransmissionIsAbsorbed() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("NOTIFY")); RawPeer notifier = new RawPeer()) {
            ClientTransaction subscribe = sut.stack.send(sut.request("SUBSCRIBE", notifier, Header.of(
                    "Event", "message-summary", "Expires", "3600", "Accept", "application/simple-message-summary"),
                    Body.NONE), new SerialExecutor(sut.pool), sut.handler);
            String sub = notifier.expect(m -> m.startsWith("SUBSCRIBE "), 2_000, "SUBSCRIBE");
            String ourTag = RawPeer.tag(RawPeer.header(sub, "From"));
            String callId = RawPeer.header(sub, "Call-ID");
            String notify = "NOTIFY sip:voicemail@127.0.0.1:" + sut.port() + " SIP/2.0\r\n"
                    + "Via: SIP/2.0/UDP 127.0.0.1:" + notifier.port() + ";branch=z9hG4bK-n1\r\n"
                    + "From: <sip:u1@127.0.0.1>;tag=nt\r\nTo: " + RawPeer.header(sub, "From") + "\r\n"
                    + "Call-ID: " + callId + "\r\nCSeq: 1 NOTIFY\r\nMax-Forwards: 70\r\n"
                    + "Contact: <sip:u1@127.0.0.1:" + notifier.port() + ">\r\n"
                    + "Event: message-summary\r\nSubscription-State: active;expires=3600\r\n"
                    + "Content-Type: application/simple-message-summary\r\nContent-Length: 22\r\n\r\n"
                    + "Messages-Waiting: yes\n";
            notifier.send(notify, sut.port());
            ServerTransaction tx = sut.nextRequest(2_000);
            assertNotNull(tx.dialog(), "the NOTIFY made the dialog");
            assertEquals(ourTag, tx.dialog().localTag());
            assertEquals("nt", tx.dialog().remoteTag());
            assertEquals("active;expires=3600", tx.request().header("Subscription-State"));
            tx.respond(200, "OK");
            String ok = notifier.expect(m -> m.startsWith("SIP/2.0 200"), 2_000, "200 to NOTIFY");
            // our 200 "was lost": the same NOTIFY again gets the same 200, the application sees nothing new
            notifier.send(notify, sut.port());
            assertEquals(ok, notifier.expect(m -> m.startsWith("SIP/2.0"), 2_000, "the same 200"));
            assertNull(sut.nextRequest(300));
            notifier.send(RawPeer.response(sub, "200 OK", "nt", "Expires: 3600\r\n", ""), sut.port());
            assertEquals(200, subscribe.finalResponse().get(2, TimeUnit.SECONDS).status());
            assertSame(tx.dialog(), subscribe.dialog(), "the 200 found the NOTIFY's dialog");
            // unsubscribe in the dialog: CSeq 2, to the NOTIFY's Contact, with both tags
            subscribe.dialog().send("SUBSCRIBE", Header.of("Event", "message-summary", "Expires", "0"), Body.NONE);
            String unsub = notifier.expect(m -> m.startsWith("SUBSCRIBE ") && m.contains("Expires: 0"), 2_000,
                    "unsubscribe");
            assertEquals("2 SUBSCRIBE", RawPeer.header(unsub, "CSeq"));
            assertEquals("nt", RawPeer.tag(RawPeer.header(unsub, "To")));
            assertEquals(1, sut.counter("sip.notify-before-2xx"));
        }
    }

    @Test
    void requestsForUnknownDialogsGet481() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("BYE", "NOTIFY")); RawPeer peer = new RawPeer()) {
            peer.send(request("BYE", sut.port(), "z9hG4bK-x1", "nope@x", "f", "t", 5, "", ""), sut.port());
            assertTrue(peer.expect(m -> m.startsWith("SIP/2.0"), 2_000, "answer").startsWith("SIP/2.0 481"));
            peer.send(request("NOTIFY", sut.port(), "z9hG4bK-x2", "nope@x", "f", "t", 5,
                    "Event: message-summary\r\n", ""), sut.port());
            assertTrue(peer.expect(m -> m.startsWith("SIP/2.0"), 2_000, "answer").startsWith("SIP/2.0 481"));
            assertNull(sut.nextRequest(200));
            assertEquals(2, sut.counter("sip.rejected.no-dialog"));
        }
    }
}

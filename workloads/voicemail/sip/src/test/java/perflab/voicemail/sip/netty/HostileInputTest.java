package perflab.voicemail.sip.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import perflab.testsupport.Poll;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.ClientTransaction;
import perflab.voicemail.sip.SerialExecutor;
import perflab.voicemail.sip.ServerTransaction;

/** Issue 11 section 6: broken and hostile datagrams get the right answer or are dropped, counted by reason. */
class HostileInputTest {
    private static String options(int port, String branch, String callId) {
        return ServerSideTest.request("OPTIONS", port, branch, callId, "f", null, 1, "", "");
    }

    private static String answer(RawPeer peer) {
        String m = peer.receive(2_000);
        assertNotNull(m, "an answer");
        return RawPeer.startLine(m);
    }

    @Test
    void eachBrokenRequestGetsItsAnswerOrIsDroppedAndCounted() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("OPTIONS", "BYE"), 2048); RawPeer peer = new RawPeer()) {
            int port = sut.port();
            String good = options(port, "z9hG4bK-h1", "h1@x");
            peer.send(good.substring(0, good.length() / 2), port);                           // truncated
            peer.send("x".repeat(4000), port);                                                // oversized
            peer.send("OPTIONS  SIP/2.0\r\nVia: SIP/2.0/UDP h\r\n\r\n", port);               // bad start line
            peer.send(new byte[] {0, 1, 2, 3, (byte) 0xff, 13, 10, 13, 10}, port);            // binary
            peer.send("\r\n\r\n", port);                                                      // keep-alive
            assertNull(peer.receive(500), "no answer to what cannot be framed");
            peer.send(good.replace("Call-ID: h1@x\r\n", ""), port);                        // cannot be answered
            assertNull(peer.receive(300));
            peer.send(good.replace(";tag=f", ""), port);
            assertEquals("SIP/2.0 400 Bad Request", answer(peer));
            peer.send(good.replace("CSeq: 1 OPTIONS\r\n", "CSeq: 1 OPTIONS\r\nCSeq: 2 OPTIONS\r\n"), port);
            assertEquals("SIP/2.0 400 Bad Request", answer(peer));
            peer.send(good.replace("Content-Length: 0", "Content-Length: 50"), port);
            assertEquals("SIP/2.0 400 Bad Request", answer(peer));
            peer.send(good.replace("CSeq: 1 OPTIONS", "CSeq: one OPTIONS"), port);
            assertEquals("SIP/2.0 400 Bad Request", answer(peer));
            peer.send(good.replace("Max-Forwards: 70\r\n", "Max-Forwards 70\r\n"), port);     // no colon
            assertEquals("SIP/2.0 400 Bad Request", answer(peer));
            peer.send(good.replace("OPTIONS", "FROBNICATE"), port);
            String unknown = peer.receive(2_000);
            assertTrue(unknown.startsWith("SIP/2.0 501"), unknown);
            assertNotNull(RawPeer.header(unknown, "Allow"));
            peer.send(good.replace("OPTIONS", "REGISTER"), port);
            String notAllowed = peer.receive(2_000);
            assertTrue(notAllowed.startsWith("SIP/2.0 405"), notAllowed);
            assertEquals("BYE, OPTIONS", RawPeer.header(notAllowed, "Allow"));
            peer.send(RawPeer.response(good, "200 OK", "t", "", ""), port);                 // no transaction
            assertNull(peer.receive(300));
            assertNull(sut.nextRequest(100), "nothing reached the application");

            Map<String, Long> c = sut.counters();
            assertEquals(1, c.get("sip.dropped.no-header-end"), c.toString());
            assertEquals(1, c.get("sip.dropped.oversized"));
            assertEquals(1, c.get("sip.dropped.bad-request-line"));
            assertEquals(1, c.get("sip.dropped.binary"));
            assertEquals(1, c.get("sip.dropped.keep-alive"));
            assertEquals(1, c.get("sip.dropped.unanswerable-missing-call-id"));
            assertEquals(1, c.get("sip.rejected.missing-from-tag"));
            assertEquals(1, c.get("sip.rejected.duplicate-cseq"));
            assertEquals(1, c.get("sip.rejected.short-body"));
            assertEquals(1, c.get("sip.rejected.bad-cseq"));
            assertEquals(1, c.get("sip.rejected.bad-header-line"));
            assertEquals(1, c.get("sip.rejected.unknown-method"));
            assertEquals(1, c.get("sip.rejected.method-not-allowed"));
            assertEquals(1, c.get("sip.dropped.no-transaction"));
            assertEquals(6, c.get("sip.out.responses.4xx"), "five 400 and one 405");
            assertEquals(1, c.get("sip.out.responses.5xx"), "one 501");

            // and the stack still serves a well-formed request
            peer.send(good, port);
            ServerTransaction tx = sut.nextRequest(2_000);
            assertNotNull(tx);
            tx.respond(200, "OK");
            assertEquals("SIP/2.0 200 OK", answer(peer));
        }
    }

    @Test
    void aFloodOfRetransmissionsIsAbsorbed() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("OPTIONS")); RawPeer peer = new RawPeer()) {
            String request = options(sut.port(), "z9hG4bK-flood", "flood@x");
            peer.send(request, sut.port());
            ServerTransaction tx = sut.nextRequest(2_000);
            tx.respond(200, "OK");
            peer.receive(2_000);
            // copies for half of Timer J at most: all of them reach the one server transaction while it still holds
            // its final response, however slowly a busy machine lets them through
            long before = sut.counter("sip.datagrams.in");
            long stopAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(StackFixture.TIMEOUT / 2);
            int copies = 0;
            while (copies < 5_000 && System.nanoTime() < stopAt) {
                peer.send(request, sut.port());
                copies++;
                if (copies % IN_FLIGHT == 0) {
                    awaitRead(sut, before + copies - IN_FLIGHT);
                }
            }
            assertTrue(copies >= 2 * IN_FLIGHT, "a flood of copies: " + copies);
            List<String> answers = peer.collect(1_500);
            // paced, none is dropped by the kernel: every copy is read and absorbed by the one server transaction
            int flood = copies;
            Poll.until("every copy absorbed", Duration.ofSeconds(30),
                    () -> sut.counter("sip.retransmissions.absorbed"), absorbed -> absorbed >= flood);
            assertNull(sut.nextRequest(100), "the application saw the request once");
            assertTrue(answers.stream().allMatch(a -> a.startsWith("SIP/2.0 200")));
        }
    }

    /**
     * Tens of thousands of datagrams mutated from a real flow's messages (bit flips, cuts, duplicated and dropped
     * lines, garbage): none may escape the I/O loop as an exception, none may leave state behind, and a normal
     * transaction still completes afterwards.
     */
    @Test
    void mutatedFlowNeverBreaksTheStack() throws Exception {
        try (StackFixture sut = new StackFixture(Set.of("INVITE", "ACK", "BYE", "NOTIFY", "SUBSCRIBE", "OPTIONS"));
             RawPeer peer = new RawPeer()) {
            int port = sut.port();
            // everything the application gets is refused, so no dialog is made and the tables must empty
            Thread answering = new Thread(() -> {
                for (int i = 0; i < 1_000_000 && !Thread.currentThread().isInterrupted(); i++) {
                    try {
                        ServerTransaction tx = sut.nextRequest(100);
                        if (tx != null) {
                            tx.respond(403, "Forbidden");
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            answering.start();
            List<String> flow = flow(port, peer.port());
            Random random = new Random(11);
            int count = 30_000;
            long before = sut.counter("sip.datagrams.in");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int sent = 0;
            for (; sent < count && System.nanoTime() < deadline; sent++) {
                peer.send(mutate(flow.get(random.nextInt(flow.size())).getBytes(StandardCharsets.UTF_8), random),
                        port);
                if (sent % 500 == 0) {
                    peer.collect(5); // keep our own receive buffer drained
                }
                if (sent % IN_FLIGHT == IN_FLIGHT - 1) {
                    awaitRead(sut, before + sent + 1 - IN_FLIGHT);
                }
            }
            assertEquals(count, sent, "all sent within a minute");
            peer.collect(500);
            awaitRead(sut, before + count);

            // a normal transaction still completes
            ClientTransaction tx = sut.stack.send(sut.request("OPTIONS", peer, List.of(), Body.NONE),
                    new SerialExecutor(sut.pool), null);
            String options = peer.expect(m -> m.startsWith("OPTIONS "), 5_000, "OPTIONS");
            peer.send(RawPeer.response(options, "200 OK", "z", "", ""), port);
            assertEquals(200, tx.finalResponse().get(5, TimeUnit.SECONDS).status());
            answering.interrupt();
            answering.join(5_000);
            // and nothing stays: every transaction ends by Timer J/H/K (64 x T1)
            sut.awaitEmptyTables(3 * StackFixture.TIMEOUT + 10_000, "Timer J/H/K");
            // checked last, when the stack has long read everything sent
            Map<String, Long> c = sut.counters();
            assertNull(c.get("sip.dropped.internal-error"), c.toString());
            assertNull(c.get("sip.errors.internal"), c.toString());
        }
    }

    /**
     * Datagrams sent and not yet read by the stack, at most: the sender waits for the stack rather than outrunning it.
     * A socket's receive buffer (208 KB by default, a few hundred small datagrams) that overflows drops what comes
     * next, and how much overflows depends on how fast the machine lets the stack read; paced, every datagram is
     * read, and the test can count them all on any machine.
     */
    private static final int IN_FLIGHT = 100;

    /** Waits until the stack has read {@code datagrams} in all (a generous bound: it reads thousands a second). */
    private static void awaitRead(StackFixture sut, long datagrams) throws InterruptedException {
        Poll.until(datagrams + " datagrams read", Duration.ofSeconds(30), () -> sut.counter("sip.datagrams.in"),
                in -> in >= datagrams);
    }

    /** One user's messages as the peers send them to the SUT (requests and responses). */
    private static List<String> flow(int sut, int peer) {
        List<String> all = new ArrayList<>();
        String base = "Via: SIP/2.0/UDP 127.0.0.1:" + peer + ";branch=z9hG4bK-m%d;rport\r\n"
                + "From: <sip:u1@127.0.0.1:" + peer + ">;tag=pf\r\nTo: <sip:voicemail@127.0.0.1:" + sut + ">;tag=st\r\n"
                + "Call-ID: mut@127.0.0.1\r\nMax-Forwards: 70\r\nContact: <sip:u1@127.0.0.1:" + peer + ">\r\n";
        all.add("NOTIFY sip:voicemail@127.0.0.1:" + sut + " SIP/2.0\r\n" + base.formatted(1) + "CSeq: 1 NOTIFY\r\n"
                + "Event: message-summary\r\nSubscription-State: active;expires=3600\r\n"
                + "Content-Type: application/simple-message-summary\r\nContent-Length: 47\r\n\r\n"
                + "Messages-Waiting: yes\r\nVoice-Message: 4/0 (0/0)\r\n");
        all.add("BYE sip:voicemail@127.0.0.1:" + sut + " SIP/2.0\r\n" + base.formatted(2) + "CSeq: 2 BYE\r\n"
                + "Content-Length: 0\r\n\r\n");
        all.add("INVITE sip:voicemail@127.0.0.1:" + sut + " SIP/2.0\r\n" + base.formatted(3).replace(";tag=st", "")
                + "CSeq: 1 INVITE\r\nContent-Type: application/sdp\r\nContent-Length: 38\r\n\r\n"
                + "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n");
        all.add("SIP/2.0 200 OK\r\n" + base.formatted(4) + "CSeq: 1 INVITE\r\nContent-Type: application/sdp\r\n"
                + "Content-Length: 10\r\n\r\nv=0\r\ns=-\r\n");
        all.add("SIP/2.0 180 Ringing\r\n" + base.formatted(5) + "CSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n");
        all.add("SIP/2.0 200 OK\r\n" + base.formatted(6) + "CSeq: 1 SUBSCRIBE\r\nExpires: 3600\r\n"
                + "Content-Length: 0\r\n\r\n");
        all.add("ACK sip:voicemail@127.0.0.1:" + sut + " SIP/2.0\r\n" + base.formatted(7) + "CSeq: 1 ACK\r\n"
                + "Content-Length: 0\r\n\r\n");
        all.add("SUBSCRIBE sip:voicemail@127.0.0.1:" + sut + " SIP/2.0\r\n" + base.formatted(8).replace(";tag=st", "")
                + "CSeq: 1 SUBSCRIBE\r\nEvent: message-summary\r\nExpires: 0\r\nContent-Length: 0\r\n\r\n");
        return all;
    }

    static byte[] mutate(byte[] message, Random random) {
        byte[] out = message.clone();
        switch (random.nextInt(7)) {
            case 0 -> { // bit flips
                for (int i = 0, n = 1 + random.nextInt(8); i < n; i++) {
                    out[random.nextInt(out.length)] ^= (byte) (1 << random.nextInt(8));
                }
            }
            case 1 -> out = java.util.Arrays.copyOf(out, random.nextInt(out.length)); // truncation
            case 2 -> { // a header line duplicated
                String s = new String(out, StandardCharsets.ISO_8859_1);
                String[] lines = s.split("\r\n", -1);
                int i = 1 + random.nextInt(Math.max(1, lines.length - 3));
                out = s.replace(lines[i] + "\r\n", lines[i] + "\r\n" + lines[i] + "\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1);
            }
            case 3 -> { // a header line removed
                String s = new String(out, StandardCharsets.ISO_8859_1);
                String[] lines = s.split("\r\n", -1);
                int i = 1 + random.nextInt(Math.max(1, lines.length - 3));
                out = s.replace(lines[i] + "\r\n", "").getBytes(StandardCharsets.ISO_8859_1);
            }
            case 4 -> { // garbage bytes overwritten
                int at = random.nextInt(out.length);
                for (int i = at; i < Math.min(out.length, at + 1 + random.nextInt(32)); i++) {
                    out[i] = (byte) random.nextInt(256);
                }
            }
            case 5 -> { // garbage appended or a huge Content-Length
                String s = new String(out, StandardCharsets.ISO_8859_1);
                out = (random.nextBoolean() ? s + "\u0000\u00ff".repeat(random.nextInt(20))
                        : s.replaceFirst("Content-Length: \\d+", "Content-Length: " + random.nextInt(Integer.MAX_VALUE)))
                        .getBytes(StandardCharsets.ISO_8859_1);
            }
            default -> { // pure noise
                out = new byte[random.nextInt(600)];
                random.nextBytes(out);
            }
        }
        return out;
    }
}

package perflab.example.ring;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SipResponderTest {
    private static String request(String method, String callId, int cseq) {
        return method + " sip:ring@127.0.0.1:5060 SIP/2.0\r\n"
                + "Via: SIP/2.0/UDP 127.0.0.1:6000;branch=z9hG4bK-1\r\n"
                + "Via: SIP/2.0/UDP 127.0.0.1:6001;branch=z9hG4bK-0\r\n"
                + "f: <sip:caller@127.0.0.1>;tag=abc\r\n"
                + "To: <sip:ring@127.0.0.1>\r\n"
                + "Call-ID: " + callId + "\r\n"
                + "CSeq: " + cseq + " " + method + "\r\n"
                + "Content-Length: 0\r\n\r\n";
    }

    private static String text(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.ISO_8859_1);
    }

    @Test
    void aCallIsAnsweredAndCountedOnceEvenWhenTheInviteIsRetransmitted() throws Exception {
        try (SipResponder sip = new SipResponder("127.0.0.1")) {
            String first = text(sip.answer(request("INVITE", "c1", 1)));
            String again = text(sip.answer(request("INVITE", "c1", 1)));
            assertTrue(first.startsWith("SIP/2.0 200 OK\r\n"), first);
            assertEquals(first, again, "a retransmitted INVITE gets the same answer, the same To tag");
            assertTrue(first.indexOf("Via: SIP/2.0/UDP 127.0.0.1:6000") < first.indexOf("Via: SIP/2.0/UDP 127.0.0.1:6001"),
                    "the Via headers go back in their order: " + first);
            assertTrue(first.contains("From: <sip:caller@127.0.0.1>;tag=abc\r\n"), "a compact header is read: " + first);
            assertTrue(first.contains("To: <sip:ring@127.0.0.1>;tag=r"), first);
            assertEquals(1, sip.invites.get());
            assertEquals(1, sip.openCalls());
            assertNull(sip.answer(request("ACK", "c1", 1)));
            assertTrue(text(sip.answer(request("BYE", "c1", 2))).startsWith("SIP/2.0 200 OK"));
            assertEquals(0, sip.openCalls());
            assertEquals(1, sip.byes.get());
        }
    }

    @Test
    void whatIsNotARequestItCanAnswerIsDroppedAndCounted() throws Exception {
        try (SipResponder sip = new SipResponder("127.0.0.1")) {
            assertNull(sip.answer("SIP/2.0 200 OK\r\nCall-ID: x\r\n\r\n"), "a response");
            assertNull(sip.answer("GET / HTTP/1.1\r\n\r\n"), "not SIP");
            assertNull(sip.answer(request("INVITE", "c2", 1).replace("Call-ID: c2\r\n", "")), "no Call-ID");
            assertNull(sip.answer("\u0000\u0001garbage"), "binary");
            assertEquals(4, sip.dropped.get());
            assertEquals(0, sip.invites.get());
            assertTrue(text(sip.answer(request("SUBSCRIBE", "c3", 1))).startsWith("SIP/2.0 501 Not Implemented"));
        }
    }
}

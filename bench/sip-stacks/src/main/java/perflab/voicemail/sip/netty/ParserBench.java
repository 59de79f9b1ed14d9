package perflab.voicemail.sip.netty;

import gov.nist.javax.sip.parser.StringMsgParser;
import java.nio.charset.StandardCharsets;

/**
 * Parse cost per message, one thread, of the three parsers on the two largest messages of the bench's call (the
 * INVITE SIPp sends, the 200 with SDP the UAS sends): perflab's MessageParser (in this package because it is
 * package-private; it frames the message and reads Via, From/To tags, Call-ID and CSeq as the stack does), pkts-sip
 * 3.0.18 (framing is lazy there, so the same headers are asked for) and JAIN-SIP RI's StringMsgParser (parses every
 * header eagerly). Not a JMH benchmark: WARM s of the three in turn, then MEASURE s each; ns per parse.
 *
 * <p>Usage: ParserBench [WARM [MEASURE]]
 */
public final class ParserBench {
    static final String INVITE = "INVITE sip:service@127.0.0.1:5090 SIP/2.0\r\n"
            + "Via: SIP/2.0/UDP 127.0.0.1:5091;branch=z9hG4bK-13698-1-0\r\n"
            + "From: sipp <sip:sipp@127.0.0.1:5091>;tag=13698SIPpTag001\r\n"
            + "To: service <sip:service@127.0.0.1:5090>\r\n"
            + "Call-ID: 1-13698@127.0.0.1\r\n"
            + "CSeq: 1 INVITE\r\n"
            + "Contact: sip:sipp@127.0.0.1:5091\r\n"
            + "Max-Forwards: 70\r\n"
            + "Subject: Performance Test\r\n"
            + "Content-Type: application/sdp\r\n"
            + "Content-Length:   129\r\n"
            + "\r\n"
            + "v=0\r\n"
            + "o=user1 53655765 2353687637 IN IP4 127.0.0.1\r\n"
            + "s=-\r\n"
            + "c=IN IP4 127.0.0.1\r\n"
            + "t=0 0\r\n"
            + "m=audio 6000 RTP/AVP 0\r\n"
            + "a=rtpmap:0 PCMU/8000\r\n";
    static final String OK = "SIP/2.0 200 OK\r\n"
            + "Via: SIP/2.0/UDP 127.0.0.1:5091;branch=z9hG4bK-13698-1-0;received=127.0.0.1\r\n"
            + "From: sipp <sip:sipp@127.0.0.1:5091>;tag=13698SIPpTag001\r\n"
            + "To: service <sip:service@127.0.0.1:5090>;tag=5d2c1e0f9a8b7c6d\r\n"
            + "Call-ID: 1-13698@127.0.0.1\r\n"
            + "CSeq: 1 INVITE\r\n"
            + "Contact: <sip:service@127.0.0.1:5090>\r\n"
            + "Server: perflab-voicemail\r\n"
            + "Content-Type: application/sdp\r\n"
            + "Content-Length: 129\r\n"
            + "\r\n"
            + "v=0\r\n"
            + "o=uas 1 1 IN IP4 127.0.0.1\r\n"
            + "s=-\r\n"
            + "c=IN IP4 127.0.0.1\r\n"
            + "t=0 0\r\n"
            + "m=audio 6000 RTP/AVP 0\r\n"
            + "a=rtpmap:0 PCMU/8000\r\n\r\n";

    interface Parser {
        long parse(byte[] message) throws Exception;
    }

    static volatile long sink;

    public static void main(String[] args) throws Exception {
        int warm = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int measure = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        byte[][] messages = {fixLength(INVITE), fixLength(OK)};
        String[] names = {"perflab MessageParser", "pkts-sip 3.0.18", "JAIN-SIP RI StringMsgParser"};
        Parser[] parsers = {ParserBench::ours, ParserBench::pkts, ParserBench::jain};
        for (int round = 0; round < 2; round++) {
            for (int p = 0; p < parsers.length; p++) {
                for (int m = 0; m < messages.length; m++) {
                    double ns = run(parsers[p], messages[m], round == 0 ? warm / 3.0 : measure);
                    if (round == 1) {
                        System.out.printf("%-28s %-7s %8.0f ns/parse%n", names[p], m == 0 ? "INVITE" : "200 OK", ns);
                    }
                }
            }
        }
    }

    /** The Content-Length written is the body's real length. */
    static byte[] fixLength(String message) {
        int split = message.indexOf("\r\n\r\n") + 4;
        int body = message.length() - split;
        return message.replaceFirst("Content-Length: +\\d+", "Content-Length: " + body)
                .getBytes(StandardCharsets.US_ASCII);
    }

    static double run(Parser parser, byte[] message, double seconds) throws Exception {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long n = 0;
        long start = System.nanoTime();
        long acc = 0;
        while (true) {
            for (int i = 0; i < 1000; i++) {
                acc += parser.parse(message);
            }
            n += 1000;
            if (System.nanoTime() >= end) {
                break;
            }
        }
        sink = acc;
        return (System.nanoTime() - start) / (double) n;
    }

    static long ours(byte[] message) throws Exception {
        ParsedMessage m = MessageParser.parse(message, message.length);
        if (m.problem() != null) {
            throw new IllegalStateException(m.problem());
        }
        return m.callId.length() + m.fromTag.length() + m.cseq + m.via.branch().length()
                + (m.toTag == null ? 0 : m.toTag.length()) + m.bodyNoCopy().length;
    }

    static long pkts(byte[] message) throws Exception {
        io.pkts.packet.sip.SipMessage m = io.pkts.packet.sip.SipMessage.frame(message);
        long acc = m.getCallIDHeader().getCallId().getReadableBytes();
        acc += m.getFromHeader().getTag().getReadableBytes();
        io.pkts.buffer.Buffer toTag = m.getToHeader().getTag();
        acc += toTag == null ? 0 : toTag.getReadableBytes();
        acc += m.getCSeqHeader().getSeqNumber();
        acc += m.getViaHeader().getBranch().getReadableBytes();
        acc += m.getContent() == null ? 0 : 1;
        return acc;
    }

    static long jain(byte[] message) throws Exception {
        gov.nist.javax.sip.message.SIPMessage m = new StringMsgParser().parseSIPMessage(message, true, false, null);
        long acc = m.getCallId().getCallId().length() + m.getFromTag().length();
        acc += m.getToTag() == null ? 0 : m.getToTag().length();
        acc += m.getCSeq().getSeqNumber();
        acc += m.getTopmostVia().getBranch().length();
        acc += m.getRawContent() == null ? 0 : m.getRawContent().length;
        return acc;
    }
}

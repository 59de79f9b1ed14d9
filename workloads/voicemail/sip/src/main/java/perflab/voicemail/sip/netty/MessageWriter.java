package perflab.voicemail.sip.netty;

import java.nio.charset.StandardCharsets;
import java.util.List;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.Header;

/**
 * Writes the messages the stack sends, with what RFC 3261 requires of each: Via, Max-Forwards, From, To, Call-ID,
 * CSeq, Contact where a dialog is made, and a Content-Length on every message (UDP does not need it, but a
 * receiver that checks it should always find it right). Called on the application's threads, so that the I/O
 * thread only sends bytes.
 */
final class MessageWriter {
    private static final String CRLF = "\r\n";

    private MessageWriter() {
    }

    /** The parts of a request that the transaction and dialog layers know. */
    record RequestLine(String method, String uri, String via, String from, String to, String callId, long cseq,
                       List<String> routes, String contact) {
    }

    static byte[] request(RequestLine r, List<Header> headers, Body body, String userAgent) {
        StringBuilder out = new StringBuilder(320 + body.bytes().length);
        out.append(r.method()).append(' ').append(r.uri()).append(" SIP/2.0").append(CRLF);
        out.append("Via: ").append(r.via()).append(CRLF);
        out.append("Max-Forwards: 70").append(CRLF);
        out.append("From: ").append(r.from()).append(CRLF);
        out.append("To: ").append(r.to()).append(CRLF);
        out.append("Call-ID: ").append(r.callId()).append(CRLF);
        // an ACK carries its INVITE's number (RFC 3261 section 17.1.1.3 and 13.2.2.4)
        out.append("CSeq: ").append(r.cseq()).append(' ').append(r.method()).append(CRLF);
        for (String route : r.routes()) {
            out.append("Route: ").append(route).append(CRLF);
        }
        if (r.contact() != null && !hasHeader(headers, "Contact")) {
            out.append("Contact: ").append(r.contact()).append(CRLF);
        }
        appendTail(out, headers, body, userAgent == null ? null : "User-Agent", userAgent);
        return withBody(out, body);
    }

    /**
     * A response to {@code request}: its Via list (the top one marked with received and rport), From, Call-ID and
     * CSeq copied, To copied with our tag added when the request had none.
     */
    static byte[] response(ParsedRequest request, String sourceHost, int sourcePort, int status, String reason,
                           String toTag, String contact, List<Header> headers, Body body, String server) {
        StringBuilder out = new StringBuilder(400 + body.bytes().length);
        out.append("SIP/2.0 ").append(status).append(' ').append(reason).append(CRLF);
        List<String> vias = request.rawValues("via");
        out.append("Via: ").append(request.via.answered(sourceHost, sourcePort)).append(CRLF);
        String first = vias.get(0);
        int comma = first.indexOf(',');
        if (comma >= 0 && comma + 1 < first.length()) {
            out.append("Via: ").append(first.substring(comma + 1).trim()).append(CRLF);
        }
        for (int i = 1; i < vias.size(); i++) {
            out.append("Via: ").append(vias.get(i)).append(CRLF);
        }
        // raw first values, so that a request with a duplicated or broken header can still get its 400
        out.append("From: ").append(request.header("from")).append(CRLF);
        out.append("To: ").append(request.header("to"));
        if (request.toTag == null && toTag != null && status > 100) {
            out.append(";tag=").append(toTag);
        }
        out.append(CRLF);
        out.append("Call-ID: ").append(request.header("call-id")).append(CRLF);
        out.append("CSeq: ").append(request.header("cseq")).append(CRLF);
        if (contact != null && !hasHeader(headers, "Contact")) {
            out.append("Contact: ").append(contact).append(CRLF);
        }
        appendTail(out, headers, body, server == null ? null : "Server", server);
        return withBody(out, body);
    }

    private static void appendTail(StringBuilder out, List<Header> headers, Body body, String agentHeader,
                                   String agent) {
        for (Header h : headers) {
            if (!h.name().equalsIgnoreCase("Content-Length") && !h.name().equalsIgnoreCase("Content-Type")) {
                out.append(h.name()).append(": ").append(h.value()).append(CRLF);
            }
        }
        if (agentHeader != null) {
            out.append(agentHeader).append(": ").append(agent).append(CRLF);
        }
        if (!body.isEmpty()) {
            out.append("Content-Type: ").append(body.contentType()).append(CRLF);
        }
        out.append("Content-Length: ").append(body.bytes().length).append(CRLF).append(CRLF);
    }

    private static boolean hasHeader(List<Header> headers, String name) {
        for (Header h : headers) {
            if (h.name().equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] withBody(StringBuilder head, Body body) {
        byte[] headBytes = head.toString().getBytes(StandardCharsets.UTF_8);
        if (body.isEmpty()) {
            return headBytes;
        }
        byte[] all = new byte[headBytes.length + body.bytes().length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body.bytes(), 0, all, headBytes.length, body.bytes().length);
        return all;
    }
}

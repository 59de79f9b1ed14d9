package perflab.voicemail.sip.netty;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Frames one UDP datagram into a message (RFC 3261 section 7): start line, header lines (folded lines joined), body
 * cut to Content-Length. Our own rather than pkts-sip's (3.0.18), which refuses methods it does not know (so no
 * 501 could be sent), refuses the whole message over one bad Via (so no 400), loses the order between a header's
 * long and compact forms, and prints stack traces to stderr on some bad start lines. It scans bytes and
 * characters, no regular expressions, and never throws on any input: what cannot be framed is a {@link Unframeable}
 * with the reason to count.
 */
final class MessageParser {
    /** More header lines than any sane message has: refused before the work grows with hostile input. */
    static final int MAX_HEADERS = 80;

    /** Why a datagram is not a message at all (no start line, binary noise): dropped, counted by {@code reason}. */
    static final class Unframeable extends Exception {
        final String reason;

        Unframeable(String reason) {
            super(reason, null, false, false);
            this.reason = reason;
        }
    }

    private MessageParser() {
    }

    static ParsedMessage parse(byte[] data, int length) throws Unframeable {
        int headerEnd = -1;
        int bodyStart = -1;
        for (int i = 0; i < length; i++) {
            if (data[i] == '\n') {
                if (i + 1 < length && data[i + 1] == '\n') {
                    headerEnd = i;
                    bodyStart = i + 2;
                    break;
                }
                if (i + 2 < length && data[i + 1] == '\r' && data[i + 2] == '\n') {
                    headerEnd = i;
                    bodyStart = i + 3;
                    break;
                }
            } else if (data[i] == 0) {
                throw new Unframeable("binary");
            }
        }
        if (headerEnd < 0) {
            throw new Unframeable("no-header-end");
        }
        String head = new String(data, 0, headerEnd, StandardCharsets.UTF_8);
        List<String> lines = lines(head);
        String startLine = lines.get(0);
        List<String> names = new ArrayList<>(lines.size());
        List<String> values = new ArrayList<>(lines.size());
        String problem = null;
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isEmpty()) {
                continue;
            }
            char first = line.charAt(0);
            if (first == ' ' || first == '\t') {
                if (values.isEmpty()) {
                    problem = "bad-header-line";
                    continue;
                }
                int last = values.size() - 1;
                values.set(last, values.get(last) + " " + line.trim());
                continue;
            }
            int colon = line.indexOf(':');
            String name = colon <= 0 ? null : line.substring(0, colon).trim();
            if (name == null || name.isEmpty() || !isToken(name)) {
                problem = problem == null ? "bad-header-line" : problem;
                continue;
            }
            names.add(HeaderValues.canonicalName(name));
            values.add(line.substring(colon + 1).trim());
        }
        if (names.size() > MAX_HEADERS) {
            throw new Unframeable("too-many-headers");
        }
        String[] nameArray = names.toArray(new String[0]);
        String[] valueArray = values.toArray(new String[0]);
        int available = length - bodyStart;
        int bodyLength = available;
        String declared = null;
        for (int i = 0; i < nameArray.length; i++) {
            if (nameArray[i].equals("content-length")) {
                declared = valueArray[i];
                break;
            }
        }
        if (declared != null) {
            long n = HeaderValues.number(declared);
            if (n < 0) {
                problem = problem == null ? "bad-content-length" : problem;
            } else if (n > available) {
                // RFC 3261 section 18.3: over UDP a body shorter than Content-Length is a 400
                problem = problem == null ? "short-body" : problem;
            } else {
                bodyLength = (int) n;
            }
        }
        byte[] body = new byte[bodyLength];
        System.arraycopy(data, bodyStart, body, 0, bodyLength);
        return startLine.startsWith("SIP/") ? response(startLine, nameArray, valueArray, body, problem)
                : request(startLine, nameArray, valueArray, body, problem);
    }

    private static ParsedMessage response(String line, String[] names, String[] values, byte[] body, String problem)
            throws Unframeable {
        // SIP/2.0 SP 3DIGIT SP reason
        if (!line.startsWith("SIP/2.0 ") || line.length() < 12 || line.charAt(11) != ' ') {
            throw new Unframeable("bad-status-line");
        }
        long status = HeaderValues.number(line.substring(8, 11));
        if (status < 100 || status > 699) {
            throw new Unframeable("bad-status-line");
        }
        return new ParsedResponse((int) status, line.substring(12), names, values, body, problem);
    }

    private static ParsedMessage request(String line, String[] names, String[] values, byte[] body, String problem)
            throws Unframeable {
        // Method SP Request-URI SP SIP/2.0
        int first = line.indexOf(' ');
        int second = first < 0 ? -1 : line.indexOf(' ', first + 1);
        if (first <= 0 || second < 0 || second == first + 1 || !line.substring(second + 1).equals("SIP/2.0")) {
            throw new Unframeable("bad-request-line");
        }
        String method = line.substring(0, first);
        String uri = line.substring(first + 1, second);
        if (!isToken(method) || uri.indexOf(':') < 0) {
            throw new Unframeable("bad-request-line");
        }
        return new ParsedRequest(method, uri, names, values, body, problem);
    }

    private static List<String> lines(String head) {
        List<String> lines = new ArrayList<>(16);
        int start = 0;
        while (start <= head.length()) {
            int lf = head.indexOf('\n', start);
            int end = lf < 0 ? head.length() : lf;
            int trimmed = end > start && head.charAt(end - 1) == '\r' ? end - 1 : end;
            lines.add(head.substring(start, trimmed));
            if (lf < 0) {
                break;
            }
            start = lf + 1;
        }
        return lines;
    }

    /** RFC 3261's token characters: what a method and a header name are made of. */
    static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "-.!%*_+`'~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return !s.isEmpty();
    }
}

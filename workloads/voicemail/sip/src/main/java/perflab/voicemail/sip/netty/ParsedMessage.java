package perflab.voicemail.sip.netty;

import java.util.ArrayList;
import java.util.List;
import perflab.voicemail.sip.SipMessage;

/**
 * A received message: its headers in order (names canonical, compact forms expanded), its body, and the values the
 * stack uses, read once by {@link MessageParser}. {@link #problem()} says why a message that could be framed is
 * still unusable (a missing Call-ID...): a request with a problem gets 400, a response is dropped.
 */
abstract class ParsedMessage implements SipMessage {
    private final String[] names;
    private final String[] values;
    private final byte[] body;
    private final String problem;
    final String callId;
    final String from;
    final String to;
    final String fromTag;
    final String toTag;
    final long cseq;
    final String cseqMethod;
    final Via via;
    final String contentType;
    /** When the stack read the datagram (System.nanoTime), set once right after parsing. */
    long receivedNanos;

    ParsedMessage(String[] names, String[] values, byte[] body, String problem, String cseqMethodExpected) {
        this.names = names;
        this.values = values;
        this.body = body;
        this.callId = single("call-id");
        this.from = single("from");
        this.to = single("to");
        this.fromTag = emptyToNull(HeaderValues.param(from, "tag"));
        this.toTag = emptyToNull(HeaderValues.param(to, "tag"));
        String cseqValue = single("cseq");
        long number = -1;
        String method = null;
        if (cseqValue != null) {
            int space = cseqValue.indexOf(' ');
            if (space > 0) {
                number = HeaderValues.number(cseqValue.substring(0, space));
                method = cseqValue.substring(space + 1).trim();
            }
        }
        this.cseq = number;
        this.cseqMethod = method;
        this.via = Via.parse(header("via"));
        this.contentType = body.length == 0 ? null : header("content-type");
        this.problem = problem != null ? problem : check(cseqMethodExpected);
    }

    @Override
    public long receivedNanos() {
        return receivedNanos;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    /** The first reason this message cannot be processed, or null. */
    private String check(String cseqMethodExpected) {
        for (String name : new String[] {"call-id", "from", "to", "cseq"}) {
            int n = count(name);
            if (n == 0) {
                return "missing-" + name;
            }
            if (n > 1) {
                return "duplicate-" + name;
            }
        }
        if (count("via") == 0) {
            return "missing-via";
        }
        if (via == null) {
            return "bad-via";
        }
        if (via.branch() == null) {
            return "missing-branch";
        }
        if (callId.isEmpty() || callId.indexOf(' ') >= 0) {
            return "bad-call-id";
        }
        if (cseq < 0 || cseq > Integer.MAX_VALUE || cseqMethod == null || cseqMethod.isEmpty()) {
            return "bad-cseq";
        }
        if (cseqMethodExpected != null && !cseqMethodExpected.equals(cseqMethod)) {
            return "cseq-method-mismatch";
        }
        if (fromTag == null) {
            return "missing-from-tag";
        }
        if (HeaderValues.uri(from) == null || HeaderValues.uri(to) == null) {
            return "bad-address";
        }
        if (count("max-forwards") > 1 || count("content-length") > 1 || count("content-type") > 1) {
            return "duplicate-header";
        }
        String maxForwards = header("max-forwards");
        if (maxForwards != null && (HeaderValues.number(maxForwards) < 0 || HeaderValues.number(maxForwards) > 255)) {
            return "bad-max-forwards";
        }
        if (body.length > 0 && contentType == null) {
            return "body-without-content-type";
        }
        return null;
    }

    String problem() {
        return problem;
    }

    private String single(String name) {
        return count(name) == 1 ? header(name) : null;
    }

    private int count(String canonical) {
        int n = 0;
        for (String name : names) {
            if (name.equals(canonical)) {
                n++;
            }
        }
        return n;
    }

    @Override
    public String header(String name) {
        String canonical = HeaderValues.canonicalName(name);
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(canonical)) {
                return values[i];
            }
        }
        return null;
    }

    @Override
    public List<String> headers(String name) {
        String canonical = HeaderValues.canonicalName(name);
        List<String> found = new ArrayList<>(2);
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(canonical)) {
                found.add(values[i]);
            }
        }
        return found;
    }

    /** Every value of a header with {@code canonical} name, raw, for copying into a response. */
    List<String> rawValues(String canonical) {
        return headers(canonical);
    }

    @Override
    public byte[] body() {
        return body.clone();
    }

    byte[] bodyNoCopy() {
        return body;
    }

    @Override
    public String contentType() {
        return contentType;
    }

    @Override
    public String callId() {
        return callId;
    }

    @Override
    public String fromTag() {
        return fromTag;
    }

    @Override
    public String toTag() {
        return toTag;
    }

    @Override
    public long cseq() {
        return cseq;
    }

    @Override
    public String cseqMethod() {
        return cseqMethod;
    }
}

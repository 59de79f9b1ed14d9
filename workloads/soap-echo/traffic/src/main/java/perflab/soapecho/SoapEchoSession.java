package perflab.soapecho;

import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Verdict;
import perflab.soapecho.contract.PerfContract;

import javax.xml.stream.XMLInputFactory;
import java.nio.charset.StandardCharsets;

/**
 * One soap-echo client. Ids increase per client and stay within xs:int: client k uses
 * {@code k * 100,000,000 + n} (n counting up, wrapping at 100 million), reduced modulo 2^31.
 * The cheap check scans bytes only, and on every response reads back the part of the echo that the id varies
 * (echoComplexTypeDoc's idout; the digits that open echoStringDoc's and echoBase64Doc's {@code out}), so a server
 * that answers a canned or cached response fails at once; the deep check parses the whole response, unless it is
 * byte for byte the last one that passed in full save for the id's echo ({@link VerifiedBody}).
 */
final class SoapEchoSession implements ClientSession {
    static final long IDS_PER_CLIENT = 100_000_000L;
    private static final long ID_RANGE = 1L << 31;
    private static final byte[] IDOUT = "idout>".getBytes(StandardCharsets.US_ASCII);
    /** The local name of echoStringDoc's and echoBase64Doc's out element. */
    private static final byte[] OUT = "out".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FAULT = "Fault>".getBytes(StandardCharsets.US_ASCII);
    /** No idout tag in the body (not a value decimalAt returns: it gives MIN_VALUE for no digits). */
    private static final long NO_IDOUT = Long.MAX_VALUE;

    private final SoapEchoTraffic traffic;
    private final long idBase;
    private final byte[] responseMarker;
    /** The one request this client has out at a time, its id set anew for each: nothing allocated per request. */
    private final Request request;
    private final int idSlot;
    /** Whether the id comes back as idout (echoComplexTypeDoc) rather than as the digits that open out. */
    private final boolean echoesIdout;
    /** The id's digits as sent, written anew per check: the out check compares bytes without allocating. */
    private final byte[] idDigits = new byte[Request.MAX_DIGITS];
    private long counter;
    private int idoutAt = -1; // where the last response's idout tag was
    /** Where the cheap check found the id's echo in the response it just read: its first digit, and past its last. */
    private int idFrom;
    private int idTo;
    private XMLInputFactory deepFactory; // made on the first deep check; a session stays on one thread
    /** The body this session last verified in full; null before its first deep check passes. */
    private VerifiedBody verified;
    private int fullParses;

    SoapEchoSession(SoapEchoTraffic traffic, int clientIndex) {
        this.traffic = traffic;
        this.idBase = (clientIndex * IDS_PER_CLIENT) % ID_RANGE;
        this.responseMarker = (traffic.operation() + PerfContract.RESPONSE_SUFFIX).getBytes(StandardCharsets.US_ASCII);
        this.request = new Request(traffic.template());
        this.idSlot = traffic.template().slotOrNone(RequestTemplate.ID);
        this.echoesIdout = PerfContract.ECHO_COMPLEX_TYPE.equals(traffic.operation());
    }

    @Override
    public Request next() {
        long id = (idBase + counter) % ID_RANGE;
        counter = (counter + 1) % IDS_PER_CLIENT;
        if (idSlot >= 0) {
            request.set(idSlot, id);
        }
        return request;
    }

    /**
     * The response's idout, {@link Long#MIN_VALUE} if no number follows the tag, {@link #NO_IDOUT} without the tag.
     * idout is the payload's last element, so a scan from the start reads the whole body (3 % of the driver's CPU in
     * echoComplexTypeDoc's profile); one operation's responses share a layout, so the tag is first looked for where
     * the last response had it. Only an opening tag is followed by digits: a stale place that happens to hold the
     * closing tag's {@code idout>} is not taken, the body is scanned.
     */
    private long idout(ResponseView response) {
        int at = idoutAt;
        if (at >= 0 && response.holdsAt(at, IDOUT)) {
            long value = response.decimalAt(at + IDOUT.length);
            if (value != Long.MIN_VALUE) {
                idFrom = at + IDOUT.length;
                return value;
            }
        }
        at = response.indexOf(IDOUT, 0);
        if (at < 0) {
            return NO_IDOUT;
        }
        idoutAt = at;
        idFrom = at + IDOUT.length;
        return response.decimalAt(idFrom);
    }

    /**
     * Null if the response element's out opens with this request's id digits (they are a few hundred bytes into
     * the body: a scan from the start is cheap); else what is wrong. Allocates only on a failure.
     */
    private String outMismatch(Request request, ResponseView response) {
        int marker = response.indexOf(responseMarker, 0);
        if (marker < 0) {
            return "no " + traffic.operation() + PerfContract.RESPONSE_SUFFIX + " in the response";
        }
        int from = outContent(response, marker + responseMarker.length);
        if (from < 0) {
            return "no out in the " + traffic.operation() + PerfContract.RESPONSE_SUFFIX;
        }
        int n = Request.writeDecimal(request.id(), RequestTemplate.ID_WIDTH, idDigits);
        for (int i = 0; i < n; i++) {
            if (from + i >= response.bodyLength() || response.bodyByte(from + i) != idDigits[i]) {
                int end = Math.min(response.bodyLength(), from + n);
                return "out does not echo this request's id " + new String(idDigits, 0, n, StandardCharsets.US_ASCII)
                        + " at its start: got '" + response.text(from, end) + "'";
            }
        }
        idFrom = from;
        idTo = from + n;
        return null;
    }

    /**
     * Where the content of the first {@code out} start tag at or after {@code from} begins, or -1: the tag may have a
     * prefix ({@code <ns2:out>}) and attributes ({@code <out xmlns="">}), as other SOAP stacks write it, and an end tag
     * ({@code </ns2:out>}) or a longer name ({@code <layout>}) is not it. Scans bytes: nothing allocated.
     */
    private static int outContent(ResponseView response, int from) {
        int length = response.bodyLength();
        for (int at = response.indexOf(OUT, from); at >= 0; at = response.indexOf(OUT, at + OUT.length)) {
            int after = at + OUT.length;
            if (after >= length) {
                return -1;
            }
            byte next = response.bodyByte(after);
            boolean nameEnds = next == '>' || next == '/' || next == ' ' || next == '\t' || next == '\r' || next == '\n';
            if (!nameEnds || at - 1 < from) {
                continue;
            }
            byte before = response.bodyByte(at - 1);
            int lt = at - 1;
            if (before == ':') { // a prefix: back over its name to the tag's '<'
                lt = at - 2;
                while (lt >= from && isNameByte(response.bodyByte(lt))) {
                    lt--;
                }
            }
            if (lt < from || response.bodyByte(lt) != '<' || (before != ':' && lt != at - 1)) {
                continue;
            }
            for (int gt = after; gt < length; gt++) {
                if (response.bodyByte(gt) == '>') {
                    return response.bodyByte(gt - 1) == '/' ? -1 : gt + 1; // <out/> holds nothing
                }
            }
            return -1;
        }
        return -1;
    }

    private static boolean isNameByte(byte b) {
        return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_' || b == '.';
    }

    @Override
    public Verdict check(Request request, ResponseView response, boolean deep) {
        int status = response.status();
        if (status != 200) {
            if (status == 500 && response.indexOf(FAULT, 0) >= 0) {
                String reason = response.textBetween("<faultstring>", "</faultstring>", 200);
                return Verdict.fail(ErrorKind.FAULT, reason == null ? "SOAP fault" : "SOAP fault: " + reason);
            }
            return Verdict.fail(ErrorKind.HTTP_STATUS, "HTTP " + status);
        }
        if (echoesIdout) {
            long idout = idout(response);
            if (idout == NO_IDOUT) {
                return Verdict.fail(ErrorKind.VALIDATION, "no idout in the response");
            }
            if (idout != request.id()) {
                return Verdict.fail(ErrorKind.VALIDATION, idout == Long.MIN_VALUE
                        ? "idout holds no number" : "idout " + idout + " != id " + request.id());
            }
        } else {
            String wrong = outMismatch(request, response);
            if (wrong != null) {
                return Verdict.fail(ErrorKind.VALIDATION, wrong);
            }
        }
        return deep ? deepCheck(request, response) : Verdict.OK;
    }

    /** The deep check, once the cheap one passed: the id's echo is where {@link #idFrom} says, and right. */
    private Verdict deepCheck(Request request, ResponseView response) {
        byte[] body = response.bodyBytes();
        if (echoesIdout) {
            idTo = idFrom;
            while (idTo < body.length && body[idTo] >= '0' && body[idTo] <= '9') {
                idTo++;
            }
        }
        if (verified != null && verified.sameApartFromId(body, idFrom, idTo)) {
            return Verdict.OK;
        }
        if (deepFactory == null) {
            deepFactory = ExpectedEcho.newInputFactory();
        }
        fullParses++;
        String mismatch = traffic.expected().mismatch(deepFactory, body, request.id());
        if (mismatch != null) {
            return Verdict.fail(ErrorKind.VALIDATION, mismatch);
        }
        verified = new VerifiedBody(body, idFrom, idTo);
        return Verdict.OK;
    }

    /** How many deep checks parsed the whole response (the others matched the verified body): for tests. */
    int fullParses() {
        return fullParses;
    }
}

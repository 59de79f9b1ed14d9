package perflab.example.hello;

import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Verdict;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One hello client. Client k sends ids {@code k * 100,000,000 + n}, n counting up, within the slot's 10 digits. The
 * cheap check reads the id back from every answer (the start of echo's body, the digits after greet's "hello "), and
 * the answer's length; the deep check compares the whole echoed body with the request's.
 */
final class HelloSession implements ClientSession {
    private static final long IDS_PER_CLIENT = 100_000_000L;
    private static final long ID_RANGE = 10_000_000_000L;
    private static final byte[] GREETING = HelloServer.GREETING.getBytes(StandardCharsets.US_ASCII);

    private final HelloTraffic traffic;
    private final long idBase;
    /** The one request this client has out at a time, its id set anew for each. */
    private final Request request;
    private final int idSlot;
    private final boolean echo;
    /** Where the id's digits start in the answer, and how long a right answer is. */
    private final int idAt;
    private final int answerLength;
    private final byte[] digits = new byte[Request.MAX_DIGITS];
    private long counter;

    HelloSession(HelloTraffic traffic, int clientIndex) {
        this.traffic = traffic;
        this.idBase = clientIndex * IDS_PER_CLIENT % ID_RANGE;
        this.request = new Request(traffic.template);
        this.idSlot = traffic.template.slot(RequestTemplate.ID);
        this.echo = HelloWorkload.ECHO.equals(traffic.operation);
        this.idAt = echo ? 0 : GREETING.length;
        this.answerLength = echo ? traffic.template.bodyLength() : GREETING.length + RequestTemplate.ID_WIDTH;
    }

    @Override
    public Request next() {
        request.set(idSlot, (idBase + counter) % ID_RANGE);
        counter = (counter + 1) % IDS_PER_CLIENT;
        return request;
    }

    @Override
    public Verdict check(Request request, ResponseView response, boolean deep) {
        if (response.status() != 200) {
            return Verdict.fail(ErrorKind.HTTP_STATUS, "HTTP " + response.status());
        }
        if (response.bodyLength() != answerLength) {
            return Verdict.fail(ErrorKind.VALIDATION, "an answer of " + response.bodyLength() + " bytes, not " + answerLength);
        }
        if (!echo && !response.holdsAt(0, GREETING)) {
            return Verdict.fail(ErrorKind.VALIDATION, "no greeting: '" + response.text(0, GREETING.length) + "'");
        }
        int n = Request.writeDecimal(request.id(), RequestTemplate.ID_WIDTH, digits);
        for (int i = 0; i < n; i++) {
            if (response.bodyByte(idAt + i) != digits[i]) {
                return Verdict.fail(ErrorKind.VALIDATION, "the answer does not carry this request's id "
                        + new String(digits, 0, n, StandardCharsets.US_ASCII) + ": got '" + response.text(idAt, idAt + n) + "'");
            }
        }
        if (deep && echo && !Arrays.equals(response.bodyBytes(), traffic.template.body(request))) {
            return Verdict.fail(ErrorKind.VALIDATION, "the echoed body differs from the request's after its id");
        }
        return Verdict.OK;
    }
}

package perflab.driver;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Traffic;
import perflab.core.traffic.Verdict;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Test traffic for {@link EchoServer}: sends "id=NNNNNNNNNN" and checks "idout=N" by scanning bytes. */
final class EchoTraffic implements Traffic {
    static final RequestTemplate ECHO = RequestTemplate.withIdSlot("echo", "POST", "/echo",
            List.of(new RequestTemplate.Header("Content-Type", "text/plain")), "id=", "");
    private static final byte[] IDOUT = "idout=".getBytes(StandardCharsets.US_ASCII);

    final AtomicLong checks = new AtomicLong();
    final AtomicLong deepChecks = new AtomicLong();
    final AtomicLong failedCallbacks = new AtomicLong();
    final AtomicLong sessions = new AtomicLong();

    @Override
    public ClientSession newSession(ClientContext context) {
        sessions.incrementAndGet();
        return new ClientSession() {
            private long n;
            private final Request request = new Request(ECHO);

            @Override
            public Request next() {
                return request.set(0, context.clientIndex() * 10_000_000L + (n++ % 10_000_000L));
            }

            @Override
            public Verdict check(Request request, ResponseView response, boolean deep) {
                checks.incrementAndGet();
                if (response.status() != 200) {
                    return Verdict.fail(ErrorKind.HTTP_STATUS, "HTTP " + response.status());
                }
                int at = response.indexOf(IDOUT, 0);
                if (at < 0 || response.decimalAt(at + IDOUT.length) != request.id()) {
                    return Verdict.fail(ErrorKind.VALIDATION, "idout is not " + request.id());
                }
                if (deep) {
                    deepChecks.incrementAndGet();
                    if (!response.bodyText().equals("idout=" + request.id())) {
                        return Verdict.fail(ErrorKind.VALIDATION, "body is not idout=" + request.id());
                    }
                }
                return Verdict.OK;
            }

            @Override
            public void failed(Request request, ErrorKind kind) {
                failedCallbacks.incrementAndGet();
            }
        };
    }

    @Override
    public List<String> requestKinds() {
        return List.of("echo");
    }
}

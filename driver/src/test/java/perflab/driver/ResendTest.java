package perflab.driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Traffic;
import perflab.core.traffic.Verdict;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A kept-alive connection that closes without a byte of answer (a proxy whose server died, a server closing an idle
 * connection as the request went out): an idempotent request goes out once more on a new connection, as a browser's
 * does, and is counted; any other request, or one on a connection that never answered, fails as an io error.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ResendTest {
    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?i)\r\ncontent-length: *(\\d+)");
    private ClosingServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aGetWhoseKeptAliveConnectionClosesUnansweredIsResentOnceAndSucceeds() throws Exception {
        server = new ClosingServer(3); // the first connection's third request: closed unanswered
        DriverResult r = run("GET", 10);
        assertEquals(10, r.successes(), () -> r.errors() + " " + r.errorSamples());
        assertEquals(0, r.errorCount());
        assertEquals(1, r.resent());
        assertEquals(2, server.connections.get(), "the resend took a new connection");
        assertEquals(11, server.requests.get(), "ten requests, one of them sent twice");
    }

    @Test
    void aPostIsNeverResent() throws Exception {
        server = new ClosingServer(3);
        DriverResult r = run("POST", 10);
        assertEquals(1L, r.errors().get(ErrorKind.IO), () -> r.errors() + " " + r.errorSamples());
        assertEquals(9, r.successes());
        assertEquals(0, r.resent());
        assertEquals(10, server.requests.get());
    }

    @Test
    void aGetItsTrafficMarkedNotResendableIsNotResent() throws Exception {
        server = new ClosingServer(3);
        TestSpec spec = new TestSpec(URI.create("http://127.0.0.1:" + server.port() + "/thing"));
        spec.clients = 1;
        spec.requests = 10;
        DriverResult r = new LoadDriver(spec.build(), new OkTraffic("GET", false)).run(i -> { });
        assertEquals(1L, r.errors().get(ErrorKind.IO), () -> r.errors() + " " + r.errorSamples());
        assertEquals(0, r.resent());
        assertEquals(10, server.requests.get());
    }

    @Test
    void aGetOnAConnectionThatNeverAnsweredFailsAsBefore() throws Exception {
        server = new ClosingServer(1); // the first request of the first connection: nothing shows the server works
        DriverResult r = run("GET", 10);
        assertEquals(1L, r.errors().get(ErrorKind.IO), () -> r.errors() + " " + r.errorSamples());
        assertEquals(9, r.successes());
        assertEquals(0, r.resent());
    }

    @Test
    void aResetCountsAsAClose() throws Exception {
        server = new ClosingServer(Leave.RESET, 3);
        DriverResult r = run("GET", 10);
        assertEquals(10, r.successes(), () -> r.errors() + " " + r.errorSamples());
        assertEquals(1, r.resent());
    }

    @Test
    void aResendIsNotResentAgain() throws Exception {
        // the first connection closes at its third request, the resend's connection at its first: no third send
        server = new ClosingServer(Leave.CLOSE, 3, 1);
        DriverResult r = run("GET", 10);
        assertEquals(1L, r.errors().get(ErrorKind.IO), () -> r.errors() + " " + r.errorSamples());
        assertEquals(9, r.successes());
        assertEquals(1, r.resent(), "the one resend is counted with its failed request");
        assertEquals(11, server.requests.get(), "ten requests, one of them sent twice, none three times");
    }

    @Test
    void anAnswerCutShortIsNotResent() throws Exception {
        server = new ClosingServer(Leave.HALF_ANSWER, 3);
        DriverResult r = run("GET", 10);
        assertEquals(1L, r.errors().get(ErrorKind.IO), () -> r.errors() + " " + r.errorSamples());
        assertEquals(0, r.resent());
        assertEquals(10, server.requests.get());
    }

    private DriverResult run(String method, long requests) throws InterruptedException {
        TestSpec spec = new TestSpec(URI.create("http://127.0.0.1:" + server.port() + "/thing"));
        spec.clients = 1;
        spec.requests = requests;
        return new LoadDriver(spec.build(), new OkTraffic(method, true)).run(i -> { });
    }

    /** How the server leaves the request it does not answer. */
    private enum Leave { CLOSE, RESET, HALF_ANSWER }

    /**
     * Answers "ok" to every request, but leaves request {@code closeAt[i]} of its connection i + 1 unanswered, as
     * {@code leave} says; the connections after those answer everything.
     */
    private static final class ClosingServer implements AutoCloseable {
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();
        private final ServerSocket socket = new ServerSocket();

        ClosingServer(int closeAt) throws IOException {
            this(Leave.CLOSE, closeAt);
        }

        ClosingServer(Leave leave, int... closeAt) throws IOException {
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            RawAcceptor.serve(socket, s -> {
                int connection = connections.incrementAndGet();
                serve(s, connection <= closeAt.length ? closeAt[connection - 1] : Integer.MAX_VALUE, leave);
            });
        }

        int port() {
            return socket.getLocalPort();
        }

        private void serve(Socket s, int closeAt, Leave leave) {
            try (s) {
                s.setSoTimeout(10_000);
                InputStream in = s.getInputStream();
                for (int n = 1; readRequest(in); n++) {
                    requests.incrementAndGet();
                    if (n == closeAt) {
                        if (leave == Leave.RESET) {
                            s.setSoLinger(true, 0); // the close sends RST: the driver reads a reset, not an end
                        } else if (leave == Leave.HALF_ANSWER) {
                            s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Len".getBytes(StandardCharsets.US_ASCII));
                            s.getOutputStream().flush();
                        }
                        return; // closed with the request read and not (all of) its answer
                    }
                    s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                }
            } catch (IOException e) {
                // the driver closed it
            }
        }

        /** Reads one request, head and body; false at the end of the stream. */
        private static boolean readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                head.write(b);
                if (head.size() >= 4 && head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                    Matcher m = CONTENT_LENGTH.matcher(head.toString(StandardCharsets.US_ASCII));
                    int body = m.find() ? Integer.parseInt(m.group(1)) : 0;
                    return in.readNBytes(body).length == body;
                }
            }
            return false;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** One request of {@code method}, its answer checked to be "ok". */
    private record OkTraffic(String method, boolean resendable) implements Traffic {
        @Override
        public ClientSession newSession(ClientContext context) {
            RequestTemplate template = RequestTemplate.builder("thing", method).pathLiteral("/thing")
                    .bodyLiteral("POST".equals(method) ? "x" : "").resendable(resendable).build();
            Request request = new Request(template);
            return new ClientSession() {
                @Override
                public Request next() {
                    return request;
                }

                @Override
                public Verdict check(Request r, ResponseView response, boolean deep) {
                    return response.status() == 200 && response.bodyText().equals("ok") ? Verdict.OK
                            : Verdict.fail(ErrorKind.VALIDATION, "not ok: " + response.bodyText());
                }
            };
        }

        @Override
        public List<String> requestKinds() {
            return List.of("thing");
        }
    }
}

package perflab.example.hello;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.ServerSettings;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.HeldResponse;
import perflab.core.traffic.Verdict;
import perflab.core.workload.TrafficOptions;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hello stack on loopback with hello's own traffic: every answer passes the check made for its request, an
 * answer recorded for another request fails it (a canned or caching server is caught), and hostile requests (a body
 * over the limit, a bad query, another path) are refused with a status, never an error page or a hang.
 */
class HelloServerTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private StartedServer server;
    private String base;

    @BeforeEach
    void start() throws Exception {
        server = HelloServer.start(SutArgs.parse(new String[] {"--port", "0", "--max-request-bytes", "4096"},
                ServerSettings.NAMES));
        base = "http://127.0.0.1:" + server.port();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    private ClientSession session(String operation, int size) {
        return HelloTraffic.of(new TrafficOptions(operation, URI.create(base + HelloWorkload.SERVICE_PATH), 7,
                Map.of(HelloWorkload.SIZE, Integer.toString(size)))).newSession(new ClientContext(3, 7));
    }

    private HeldResponse send(Request request) throws Exception {
        var template = request.template();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + template.path(request)));
        byte[] body = template.body(request);
        b.method(template.method(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        return HeldResponse.of(r.statusCode(), r.body());
    }

    @Test
    void everyAnswerPassesItsOwnRequestsCheckAndFailsTheNext() throws Exception {
        for (String operation : List.of(HelloWorkload.ECHO, HelloWorkload.GREET)) {
            ClientSession session = session(operation, 100);
            Request first = session.next();
            HeldResponse recorded = send(first);
            assertTrue(session.check(first, recorded, true).ok(), operation + ": " + session.check(first, recorded, true));
            for (int i = 0; i < 3; i++) {
                Request next = session.next();
                HeldResponse real = send(next);
                assertTrue(session.check(next, real, true).ok(), operation + " " + next);
                Verdict canned = session.check(next, recorded, false);
                assertFalse(canned.ok(), operation + ": the first answer passed for " + next);
                assertEquals(ErrorKind.VALIDATION, canned.kind(), canned.toString());
            }
        }
    }

    @Test
    void anEchoThatLosesBytesFailsAndAnErrorStatusIsAnHttpError() throws Exception {
        ClientSession session = session(HelloWorkload.ECHO, 100);
        Request request = session.next();
        HeldResponse real = send(request);
        byte[] shorter = java.util.Arrays.copyOf(real.body(), real.body().length - 1);
        assertEquals(ErrorKind.VALIDATION, session.check(request, HeldResponse.of(200, shorter), false).kind());
        byte[] spoiled = real.body().clone();
        spoiled[50] = (byte) (spoiled[50] == 'a' ? 'b' : 'a');
        assertTrue(session.check(request, HeldResponse.of(200, spoiled), false).ok(), "the cheap check reads the id only");
        assertEquals(ErrorKind.VALIDATION, session.check(request, HeldResponse.of(200, spoiled), true).kind(),
                "the deep check reads the whole echo");
        assertEquals(ErrorKind.HTTP_STATUS, session.check(request, HeldResponse.of(503, real.body()), false).kind());
    }

    @Test
    void hostileRequestsAreRefusedWithAStatus() throws Exception {
        HttpResponse<String> big = http.send(HttpRequest.newBuilder(URI.create(base + "/hello"))
                .POST(HttpRequest.BodyPublishers.ofString("x".repeat(5000))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(413, big.statusCode(), big.body());
        for (String query : List.of("", "?id=", "?id=12x", "?id=1&id=2", "?id=" + "9".repeat(20), "?name=%00")) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/hello" + query)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, r.statusCode(), query + ": " + r.body());
        }
        HttpResponse<String> elsewhere = http.send(HttpRequest.newBuilder(URI.create(base + "/hello/../etc/passwd")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(elsewhere.statusCode() == 404 || elsewhere.statusCode() == 400, elsewhere.statusCode() + " " + elsewhere.body());
        assertFalse(elsewhere.body().contains("<html"), elsewhere.body());
    }

    /** A chunked body over the limit (no length to refuse it by) is cut off at the limit, and the connection closed. */
    @Test
    void aChunkedBodyOverTheLimitIsRefusedAndTheConnectionClosed() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /hello HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 6; i++) {
                out.write(("400\r\n" + "y".repeat(1024) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII); // to the close: no hang
            assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
            assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), answer);
        }
    }
}

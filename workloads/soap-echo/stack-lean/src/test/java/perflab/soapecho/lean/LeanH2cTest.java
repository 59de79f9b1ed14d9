package perflab.soapecho.lean;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.core.sut.RunningServer;
import perflab.core.sut.SutArgs;
import perflab.soapecho.contract.PerfContract;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lean stack with --http h2c: prior knowledge, Upgrade without a body, Upgrade with a body, and the server's own count. */
@Timeout(60)
class LeanH2cTest {
    private static LeanSoapEchoServer.Running server;

    static RunningServer start(String... settings) throws Exception {
        String[] args = new String[settings.length + 4];
        System.arraycopy(new String[] {"--host", "127.0.0.1", "--port", "0"}, 0, args, 0, 4);
        System.arraycopy(settings, 0, args, 4, settings.length);
        return LeanSoapEchoServer.start(SutArgs.parse(args, LeanSettings.NAMES));
    }

    @BeforeAll
    static void startServer() throws Exception {
        server = (LeanSoapEchoServer.Running) start("--http", "h2c", "--server-metrics", "on");
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop();
    }

    @Test
    void priorKnowledgeServesEveryOperationOverHttp2() throws Exception {
        long before = server.metrics().http2Requests();
        try (H2cPriorKnowledge h2 = new H2cPriorKnowledge(server.port())) {
            H2cPriorKnowledge.Response complex = h2.post(PerfContract.SERVICE_PATH, TestMessages.complexTypeRequest(5, 31337));
            assertEquals(200, complex.status(), complex.body());
            assertTrue(complex.body().contains("idout>31337<"), complex.body());
            H2cPriorKnowledge.Response string = h2.post(PerfContract.SERVICE_PATH, TestMessages.stringRequest("h2c-echo"));
            assertEquals(200, string.status(), string.body());
            assertTrue(string.body().contains(">h2c-echo<"), string.body());
            H2cPriorKnowledge.Response base64 = h2.post(PerfContract.SERVICE_PATH, TestMessages.base64Request(TestMessages.base64Value(1)));
            assertEquals(200, base64.status(), base64.body());
            H2cPriorKnowledge.Response fault = h2.post(PerfContract.SERVICE_PATH, "not xml");
            assertEquals(500, fault.status(), fault.body());
            assertTrue(fault.body().contains("Fault>"), fault.body());
        }
        assertEquals(before + 4, http2Count(before + 4), "the server counted the streams as HTTP/2");
    }

    /** The JDK client upgrades a bodiless GET; POSTs then go over HTTP/2 on that connection. */
    @Test
    void upgradeWithoutABodyIsTaken() throws Exception {
        long before = server.metrics().http2Requests();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(5)).build();
        URI service = URI.create("http://127.0.0.1:" + server.port() + PerfContract.SERVICE_PATH);
        HttpResponse<String> wsdl = client.send(HttpRequest.newBuilder(URI.create(service + "?wsdl")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, wsdl.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, wsdl.version());
        HttpResponse<String> echo = client.send(HttpRequest.newBuilder(service).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "text/xml; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(TestMessages.complexTypeRequest(1, 99))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, echo.statusCode(), echo.body());
        assertEquals(HttpClient.Version.HTTP_2, echo.version());
        assertTrue(echo.body().contains("idout>99<"), echo.body());
        assertEquals(before + 1, http2Count(before + 1));
    }

    /** As CXF's client conduit sends every POST: Upgrade: h2c with a body (sized or chunked) is answered over HTTP/1.1. */
    @Test
    void upgradeWithABodyIsAnsweredOverHttp11() throws Exception {
        long before = server.metrics().http2Requests();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> echo = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + PerfContract.SERVICE_PATH))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "text/xml; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(TestMessages.complexTypeRequest(1, 98))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, echo.statusCode(), echo.body());
        assertEquals(HttpClient.Version.HTTP_1_1, echo.version());
        assertTrue(echo.body().contains("idout>98<"), echo.body());
        assertUpgradeWithBodyAnsweredOverHttp11(server.port());
        assertEquals(before, server.metrics().http2Requests());
    }

    @Test
    void http1ModeAnswersThePrefaceWithAnHttp11ErrorAndIgnoresUpgrade() throws Exception {
        assertEquals(0x04, prefaceAnswer(server.port()).charAt(3), "h2c mode: the server's first frame is SETTINGS");
        RunningServer http1 = start("--http", "http1");
        try {
            assertTrue(prefaceAnswer(http1.port()).startsWith("HTTP/1.1 4"), "an HTTP/1.1 error, not HTTP/2 frames");
            assertUpgradeWithBodyAnsweredOverHttp11(http1.port());
        } finally {
            http1.stop();
        }
    }

    static void assertUpgradeWithBodyAnsweredOverHttp11(int port) throws Exception {
        byte[] body = TestMessages.complexTypeRequest(1, 4242).getBytes(StandardCharsets.UTF_8);
        String upgrade = "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n"
                + "Content-Type: text/xml; charset=UTF-8\r\nSOAPAction: \"\"\r\n";
        try (RawHttp raw = new RawHttp(port)) {
            raw.send("POST " + PerfContract.SERVICE_PATH + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + upgrade
                    + "Content-Length: " + body.length + "\r\n\r\n", body);
            RawHttp.Response response = raw.read();
            assertNotNull(response, "no response");
            assertEquals(200, response.status(), response.text());
            assertTrue(response.text().contains("idout>4242<"), response.text());
            String chunked = Integer.toHexString(body.length) + "\r\n" + new String(body, StandardCharsets.UTF_8) + "\r\n0\r\n\r\n";
            raw.send("POST " + PerfContract.SERVICE_PATH + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + upgrade
                    + "Transfer-Encoding: chunked\r\n\r\n", chunked.getBytes(StandardCharsets.UTF_8));
            RawHttp.Response second = raw.read();
            assertNotNull(second, "no response to the chunked request");
            assertEquals(200, second.status(), second.text());
            assertTrue(second.text().contains("idout>4242<"), second.text());
        }
    }

    /** The server records a request when its response is done, which may be just after the client has it. */
    private static long http2Count(long expected) throws InterruptedException {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (server.metrics().http2Requests() < expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return server.metrics().http2Requests();
    }

    /** Sends the HTTP/2 client preface and returns the first bytes of the answer (ISO-8859-1). */
    static String prefaceAnswer(int port) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\4\0\0\0\0\0".getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1);
        }
    }
}

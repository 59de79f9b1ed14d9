package perflab.soapecho.cxf;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.core.sut.RunningServer;
import perflab.soapecho.contract.PerfContract;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cxf stack with --http h2c: prior knowledge, Upgrade without a body, Upgrade with a body, and the server's own count. */
@Timeout(60)
class H2cTest {
    private static CxfSoapEchoServer.Running server;

    @BeforeAll
    static void start() throws Exception {
        server = (CxfSoapEchoServer.Running) CxfSoapEchoServerTest.start("--http", "h2c", "--server-metrics", "on");
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

    /** What CXF's own client conduit does: the first POST carries Upgrade: h2c and a body; CXF answers over HTTP/1.1. */
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
        CxfSoapEchoServerTest.assertUpgradeWithBodyAnsweredOverHttp11(server.port());
        assertEquals(before, server.metrics().http2Requests());
    }

    @Test
    void h2cModeAnswersThePrefaceWithFrames() throws Exception {
        String answer = prefaceAnswer(server.port());
        assertEquals(0x04, answer.charAt(3), "the server's first frame is SETTINGS");
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
            byte[] first = socket.getInputStream().readNBytes(12);
            return new String(first, StandardCharsets.ISO_8859_1);
        }
    }

    /** Without --http h2c, CXF's engine is told not to add its h2c factory: a prior-knowledge client gets nowhere. */
    @Test
    void http1ModeRefusesHttp2() throws Exception {
        RunningServer http1 = CxfSoapEchoServerTest.start("--http", "http1");
        try {
            assertTrue(prefaceAnswer(http1.port()).startsWith("HTTP/1.1 4"), "an HTTP/1.1 error, not HTTP/2 frames");
            CxfSoapEchoServerTest.assertUpgradeWithBodyAnsweredOverHttp11(http1.port());
        } finally {
            http1.stop();
        }
    }
}

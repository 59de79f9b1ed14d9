package perflab.soapecho.testkit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import perflab.core.sut.RunningServer;
import perflab.testsupport.Poll;
import perflab.core.sut.StartedServer;
import perflab.soapecho.contract.PerfContract;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A soap-echo stack with --http h2c: prior knowledge, Upgrade without a body, Upgrade with a body, and the
 * server's own HTTP/2 count; and with --http http1, no HTTP/2 at all. A stack's test class extends this and
 * names its {@link #stack()}.
 */
@Timeout(60)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SoapEchoH2cTest {
    /** Started with --http h2c and --server-metrics on. */
    protected StartedServer server;

    /** The stack under test. */
    protected abstract InProcessStack stack();

    @BeforeAll
    void startServer() throws Exception {
        server = stack().startOnLoopback("--http", "h2c", "--server-metrics", "on");
    }

    @AfterAll
    void stopServer() throws Exception {
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
        H2cProbes.assertUpgradeWithBodyAnsweredOverHttp11(server.port());
        assertEquals(before, server.metrics().http2Requests());
    }

    @Test
    void h2cModeAnswersThePrefaceWithFrames() throws Exception {
        assertEquals(0x04, H2cProbes.prefaceAnswer(server.port()).charAt(3), "the server's first frame is SETTINGS");
    }

    /** With --http http1 a prior-knowledge client gets an HTTP/1.1 error, and Upgrade with a body is ignored. */
    @Test
    void http1ModeRefusesHttp2() throws Exception {
        RunningServer http1 = stack().startOnLoopback("--http", "http1");
        try {
            assertTrue(H2cProbes.prefaceAnswer(http1.port()).startsWith("HTTP/1.1 4"), "an HTTP/1.1 error, not HTTP/2 frames");
            H2cProbes.assertUpgradeWithBodyAnsweredOverHttp11(http1.port());
        } finally {
            http1.stop();
        }
    }

    /** The server records a request when its response is done, which may be just after the client has it. */
    private long http2Count(long expected) throws InterruptedException {
        // the server counts a request a moment after the client has its answer: wait for the count (the bound only
        // caps how long a wrong count takes to fail; the equality below catches one too many)
        return Poll.until("the server to count " + expected + " HTTP/2 requests", java.time.Duration.ofSeconds(30),
                () -> server.metrics().http2Requests(), n -> n >= expected);
    }
}

package perflab.soap.jetty;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.sut.ServerSettings;
import perflab.soap.SoapAdmission;
import perflab.soap.SoapFault;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared Jetty bootstrap and failure answers, on a real server on loopback (ephemeral ports). */
class SutJettyServerTest {
    /** Names the protocol each request came in on; a POST goes through admission, "/fail" fails inside. */
    private static final class ProbeHandler extends Handler.Abstract {
        private final SoapAdmission admission = new SoapAdmission(1024);

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            try {
                if ("/fail".equals(request.getHttpURI().getPath())) {
                    throw new IllegalStateException("a bug");
                }
                if ("POST".equals(request.getMethod())) {
                    admission.admit(request.getMethod(), Request.asInputStream(request), request.getLength());
                }
                JettyAnswers.plain(response, callback, 200, request.getConnectionMetaData().getHttpVersion().asString());
            } catch (SoapFault | IOException | RuntimeException e) {
                JettyAnswers.failure(response, callback, e);
            }
            return true;
        }
    }

    private static ServerSettings settings(ServerSettings.Http http, boolean accessLog, Path logFile) {
        return new ServerSettings("127.0.0.1", 0, 8, 1024, 0, accessLog, logFile.toString(), false, http);
    }

    @Test
    void servesHttp1OnAnEphemeralPortWithoutServerHeaderAndLogsAccess(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("access.log");
        SutJettyServer server = SutJettyServer.create(settings(ServerSettings.Http.HTTP1, true, log), "bootstrap-test");
        int port = server.start(new ProbeHandler());
        try {
            assertTrue(port > 0);
            HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/x")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("HTTP/1.1\n", answer.body(), "no h2c unless asked for: the Upgrade is ignored");
            assertFalse(answer.headers().firstValue("Server").isPresent());
            assertTrue(server.server().getThreadPool().toString().contains("bootstrap-test"), server.server().getThreadPool().toString());
        } finally {
            server.stop();
        }
        assertTrue(Files.readString(log).contains("\"GET /x HTTP/1.1\" 200"), Files.readString(log));
    }

    @Test
    void servesH2cBesideHttp1WhenAsked(@TempDir Path dir) throws Exception {
        SutJettyServer server = SutJettyServer.create(settings(ServerSettings.Http.H2C, false, dir.resolve("a.log")), "bootstrap-test");
        int port = server.start(new ProbeHandler());
        try {
            // the JDK client asks for h2c by Upgrade, which is taken on a request without a body
            HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/x")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, answer.version());
            assertEquals("HTTP/2.0\n", answer.body());
            try (LoopbackHttp http1 = new LoopbackHttp(port)) {
                assertEquals("HTTP/1.1\n", http1.send("GET", "/x", "").body());
            }
        } finally {
            server.stop();
        }
    }

    @Test
    void failuresAreSoapFaultsAndCloseTheConnectionWhereTheBodyWasNotRead(@TempDir Path dir) throws Exception {
        SutJettyServer server = SutJettyServer.create(settings(ServerSettings.Http.HTTP1, false, dir.resolve("a.log")), "bootstrap-test");
        int port = server.start(new ProbeHandler());
        try (LoopbackHttp http = new LoopbackHttp(port)) {
            LoopbackHttp.Answer internal = http.send("GET", "/fail", "");
            assertEquals(500, internal.status());
            assertTrue(internal.body().contains("internal error: IllegalStateException"), internal.body());
            assertTrue(internal.closes());
        } finally {
            server.stop();
        }
        server = SutJettyServer.create(settings(ServerSettings.Http.HTTP1, false, dir.resolve("a.log")), "bootstrap-test");
        port = server.start(new ProbeHandler());
        try (LoopbackHttp http = new LoopbackHttp(port)) {
            LoopbackHttp.Answer tooLarge = http.send("POST", "/", "x".repeat(2000));
            assertEquals(500, tooLarge.status());
            assertTrue(tooLarge.body().contains("request body exceeds the limit of 1024 bytes"), tooLarge.body());
            assertTrue(tooLarge.closes());
        } finally {
            server.stop();
        }
    }
}

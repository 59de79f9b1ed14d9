package perflab.soap.jetty;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import perflab.core.sut.ServerSettings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one requests-per-connection policy every stack applies, on a real Jetty server on loopback. */
class RequestsPerConnectionTest {
    static ServerSettings settings(int maxRequestsPerConnection) {
        return new ServerSettings("127.0.0.1", 0, 8, ServerSettings.DEFAULT_MAX_REQUEST_BYTES, maxRequestsPerConnection,
                false, "access.log", false, ServerSettings.Http.HTTP1);
    }

    private SutJettyServer server;

    /** A server that applies the policy, reads the body (Jetty closes a connection whose body is left unread), answers a line. */
    private int serve(ServerSettings settings, RequestsPerConnection policy) throws Exception {
        server = SutJettyServer.create(settings, "policy-test");
        return server.start(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                policy.apply(request, response);
                Request.asInputStream(request).readAllBytes();
                JettyAnswers.plain(response, callback, 200, "ok");
                return true;
            }
        });
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void theNthRequestOnAConnectionIsAnsweredWithCloseAndTheConnectionEnds() throws Exception {
        ServerSettings settings = settings(3);
        RequestsPerConnection policy = new RequestsPerConnection(settings);
        assertTrue(policy.limited());
        int port = serve(settings, policy);
        for (int connection = 0; connection < 2; connection++) { // the count is per connection
            try (LoopbackHttp http = new LoopbackHttp(port)) {
                assertFalse(http.send("POST", "/", "a").closes());
                assertFalse(http.send("POST", "/", "b").closes());
                LoopbackHttp.Answer third = http.send("POST", "/", "c");
                assertEquals(200, third.status());
                assertTrue(third.closes(), third.head());
                assertTrue(http.closedByServer());
            }
        }
    }

    @Test
    void unlimitedByDefault() throws Exception {
        ServerSettings settings = settings(0);
        RequestsPerConnection policy = new RequestsPerConnection(settings);
        assertFalse(policy.limited());
        try (LoopbackHttp http = new LoopbackHttp(serve(settings, policy))) {
            for (int i = 0; i < 20; i++) {
                assertFalse(http.send("POST", "/", "x").closes());
            }
        }
    }
}

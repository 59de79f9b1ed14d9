package perflab.soap.jetty;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
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

    /** Answers every request with a plain line after applying the policy, as a stack's handler does. */
    private static SutJettyServer serve(ServerSettings settings) {
        return SutJettyServer.create(settings, "policy-test");
    }

    private static Handler answering(RequestsPerConnection policy) {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                policy.apply(request, response);
                JettyAnswers.plain(response, callback, 200, "ok");
                return true;
            }
        };
    }

    @Test
    void theNthRequestOnAConnectionIsAnsweredWithCloseAndTheConnectionEnds() throws Exception {
        ServerSettings settings = settings(3);
        RequestsPerConnection policy = new RequestsPerConnection(settings);
        assertTrue(policy.limited());
        SutJettyServer server = serve(settings);
        int port = server.start(answering(policy));
        try {
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
        } finally {
            server.stop();
        }
    }

    @Test
    void unlimitedByDefault() throws Exception {
        ServerSettings settings = settings(0);
        RequestsPerConnection policy = new RequestsPerConnection(settings);
        assertFalse(policy.limited());
        SutJettyServer server = serve(settings);
        int port = server.start(answering(policy));
        try (LoopbackHttp http = new LoopbackHttp(port)) {
            for (int i = 0; i < 20; i++) {
                assertFalse(http.send("POST", "/", "x").closes());
            }
        } finally {
            server.stop();
        }
    }
}

package perflab.driver;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Traffic;
import perflab.core.traffic.Verdict;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The traffic API serves stateful workloads (the trade workload to come): a client logs in, keeps the session
 * cookie the server set, then runs a weighted mix of request kinds that carry it.
 */
class ScenarioTrafficTest {
    private static final RequestTemplate LOGIN = RequestTemplate.withIdSlot("login", "POST", "/login", List.of(), "uid=", "");
    private static final RequestTemplate QUOTE = RequestTemplate.fixed("quote", "GET", "/quote", List.of(), null);
    private static final RequestTemplate BUY = RequestTemplate.fixed("buy", "POST", "/buy", List.of(), "symbol=s:1");

    /** Login once, then quote 3 : buy 1, every request after login carrying the session cookie. */
    static final class BrokerSession implements ClientSession {
        private final ClientContext context;
        private final SplittableRandom random;
        private String cookie;

        BrokerSession(ClientContext context) {
            this.context = context;
            this.random = new SplittableRandom(context.seed());
        }

        @Override
        public Request next() {
            if (cookie == null) {
                return new Request(LOGIN, context.clientIndex());
            }
            RequestTemplate kind = random.nextInt(4) < 3 ? QUOTE : BUY;
            return new Request(kind, 0, List.of(new RequestTemplate.Header("Cookie", cookie)));
        }

        @Override
        public Verdict check(Request request, ResponseView response, boolean deep) {
            if (response.status() != 200) {
                return Verdict.fail(ErrorKind.HTTP_STATUS, request.template().kind() + " got HTTP " + response.status());
            }
            if (request.template() == LOGIN) {
                String setCookie = response.header("Set-Cookie");
                if (setCookie == null || !setCookie.startsWith("session=user" + context.clientIndex())) {
                    return Verdict.fail(ErrorKind.VALIDATION, "login set no session cookie for this user: " + setCookie);
                }
                cookie = setCookie.split(";")[0];
            }
            return Verdict.OK;
        }

        @Override
        public void failed(Request request, ErrorKind kind) {
            cookie = null; // log in again on the next connection
        }
    }

    @Test
    void loginThenWeightedMixWithSessionCookies() throws Exception {
        AtomicLong withoutCookie = new AtomicLong();
        // the JDK server writes head and body separately: without TCP_NODELAY, Nagle and delayed ACKs add 40 ms
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        server.setExecutor(pool);
        server.createContext("/login", exchange -> {
            String uid = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.US_ASCII).substring(4);
            exchange.getResponseHeaders().add("Set-Cookie", "session=user" + Long.parseLong(uid) + "; Path=/");
            answer(exchange, 200, "welcome");
        });
        for (String path : List.of("/quote", "/buy")) {
            server.createContext(path, exchange -> {
                exchange.getRequestBody().readAllBytes();
                String cookie = exchange.getRequestHeaders().getFirst("Cookie");
                if (cookie == null || !cookie.startsWith("session=user")) {
                    withoutCookie.incrementAndGet();
                    answer(exchange, 401, "log in first");
                } else {
                    answer(exchange, 200, "ok");
                }
            });
        }
        server.start();
        try {
            TestSpec spec = new TestSpec(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"));
            spec.clients = 4;
            spec.requests = 2000;
            Traffic traffic = new Traffic() {
                @Override
                public ClientSession newSession(ClientContext context) {
                    return new BrokerSession(context);
                }

                @Override
                public List<String> requestKinds() {
                    return List.of("login", "quote", "buy");
                }
            };
            DriverResult result = new LoadDriver(spec.build(), traffic).run(interval -> { });
            assertEquals(0, result.errorCount(), result.errorSamples().toString());
            assertEquals(0, withoutCookie.get());
            assertEquals(2000, result.requests());
            long login = result.successesByKind().getOrDefault("login", 0L);
            long quote = result.successesByKind().getOrDefault("quote", 0L);
            long buy = result.successesByKind().getOrDefault("buy", 0L);
            assertEquals(4, login, result.successesByKind().toString());
            double share = (double) quote / (quote + buy);
            assertTrue(share > 0.68 && share < 0.82, "quote share " + share);
        } finally {
            server.stop(0);
            pool.shutdownNow();
        }
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}

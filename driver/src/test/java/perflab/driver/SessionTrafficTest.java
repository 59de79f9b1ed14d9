package perflab.driver;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.CookieJar;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.HtmlExtract;
import perflab.core.traffic.JsonExtract;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Traffic;
import perflab.core.traffic.UrlEncoding;
import perflab.core.traffic.Verdict;
import perflab.core.traffic.WeightedMix;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The traffic API for stateful web workloads against a real server (Jetty, HTTP/1.1 and h2c on one port): a
 * client logs in (a slot in the query), keeps the cookies the server set, takes the CSRF token from the login
 * page's form, then runs a weighted mix of a quote (JSON answer) and a form post whose body has slots of variable
 * length (Content-Length per request). The server rejects anything wrong, so zero errors means the bytes on the
 * wire were right; the per-kind figures must add up to the totals, in the window and per second.
 */
class SessionTrafficTest {
    private static final RequestTemplate LOGIN = RequestTemplate.builder("login", "GET").path("/login?user=${user}").build();
    private static final RequestTemplate QUOTE = RequestTemplate.builder("quote", "GET").path("/quote?symbol=${symbol}")
            .header("Cookie", "${cookie}").build();
    private static final RequestTemplate BUY = RequestTemplate.builder("buy", "POST").path("/buy")
            .header("Cookie", "${cookie}").header("Content-Type", "application/x-www-form-urlencoded")
            .body("csrf=${csrf}&symbol=${symbol}&qty=${qty}").build();
    private static final List<String> SYMBOLS = List.of("ACME", "BRK B", "X&Y", "Zürich");
    private static final WeightedMix<RequestTemplate> MIX = WeightedMix.<RequestTemplate>builder().add(QUOTE, 3).add(BUY, 1).build();

    private static Server server;
    private static ServerConnector connector;

    /** One user: login, then the mix; every check compares what the server saw with what the session sent. */
    static final class BrokerSession implements ClientSession {
        private final int user;
        private final SplittableRandom random;
        private final CookieJar cookies = new CookieJar();
        private final Request login = new Request(LOGIN);
        private final Request quote = new Request(QUOTE);
        private final Request buy = new Request(BUY);
        private final Duration think;
        private String csrf;
        private String symbol;
        private long qty;

        BrokerSession(ClientContext context, Duration think) {
            this.user = context.clientIndex();
            this.random = new SplittableRandom(context.seed());
            this.think = think;
        }

        @Override
        public Request next() {
            if (csrf == null) {
                return login.set("user", user).thinkTime(think);
            }
            symbol = SYMBOLS.get(random.nextInt(SYMBOLS.size()));
            RequestTemplate t = MIX.pick(random);
            if (t == QUOTE) {
                return quote.set("symbol", UrlEncoding.component(symbol)).set("cookie", cookies.header("/quote"))
                        .thinkTime(think);
            }
            qty = random.nextInt(1, 100_000);
            return buy.set("csrf", UrlEncoding.formValue(csrf)).set("symbol", UrlEncoding.formValue(symbol))
                    .set("qty", qty).set("cookie", cookies.header("/buy")).thinkTime(think);
        }

        @Override
        public Verdict check(Request request, ResponseView response, boolean deep) {
            if (response.status() != 200) {
                return Verdict.fail(ErrorKind.HTTP_STATUS, "HTTP " + response.status() + ": " + response.bodyText());
            }
            if (request.template() == LOGIN) {
                cookies.receive(response, "/login");
                csrf = HtmlExtract.inputValue(response, "csrf");
                return csrf != null ? Verdict.OK : Verdict.fail(ErrorKind.VALIDATION, "no csrf token in the login page");
            }
            String expected = request.template() == QUOTE ? symbol : Long.toString(qty);
            String got = JsonExtract.field(response, request.template() == QUOTE ? "symbol" : "bought");
            if (!expected.equals(got) || !("u" + user).equals(JsonExtract.field(response, "user"))) {
                return Verdict.fail(ErrorKind.VALIDATION, "expected " + expected + " for u" + user + ": " + response.bodyText());
            }
            return Verdict.OK;
        }

        @Override
        public void failed(Request request, ErrorKind kind) {
            csrf = null;
            cookies.clear();
        }
    }

    static Traffic traffic(Duration think) {
        return new Traffic() {
            @Override
            public ClientSession newSession(ClientContext context) {
                return new BrokerSession(context, think);
            }

            @Override
            public List<String> requestKinds() {
                return List.of("login", "quote", "buy");
            }
        };
    }

    @BeforeAll
    static void startServer() throws Exception {
        server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(config), new HTTP2CServerConnectionFactory(config));
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(org.eclipse.jetty.server.Request request, Response response, Callback callback) throws Exception {
                String answer = answer(request, response);
                if (answer == null) {
                    response.setStatus(400);
                    answer = "bad request: " + request.getHttpURI() + " cookie=" + request.getHeaders().get("Cookie");
                }
                Content.Sink.write(response, true, answer, callback);
                return true;
            }
        });
        server.start();
    }

    /** The application: null when the request is not what a correct client sends. */
    private static String answer(org.eclipse.jetty.server.Request request, Response response) throws java.io.IOException {
        Map<String, String> query = form(request.getHttpURI().getQuery());
        String path = request.getHttpURI().getPath();
        if (path.equals("/login")) {
            String user = query.get("user");
            response.getHeaders().add(HttpHeader.SET_COOKIE, "session=u" + user + "; Path=/; Max-Age=3600");
            response.getHeaders().add(HttpHeader.SET_COOKIE, "elsewhere=1; Path=/admin");
            response.getHeaders().add(HttpHeader.SET_COOKIE, "gone=1; Max-Age=0");
            return "<html><form><input type=\"hidden\" name=\"csrf\" value=\"tok&amp;" + user + "\"></form></html>";
        }
        String cookie = request.getHeaders().get("Cookie");
        if (cookie == null || !cookie.matches("session=u\\d+")) {
            return null; // exactly the session cookie: not the one for /admin, not the expired one
        }
        String user = cookie.substring("session=".length());
        if (path.equals("/quote")) {
            return "{\"user\": \"" + user + "\", \"symbol\": \"" + query.get("symbol").replace("\"", "\\\"") + "\"}";
        }
        if (path.equals("/buy") && request.getMethod().equals("POST")) {
            Map<String, String> body = form(Content.Source.asString(request, StandardCharsets.UTF_8));
            if (!("tok&" + user.substring(1)).equals(body.get("csrf")) || !SYMBOLS.contains(body.get("symbol"))) {
                return null;
            }
            return "{\"user\":\"" + user + "\",\"bought\":" + body.get("qty") + "}";
        }
        return null;
    }

    private static Map<String, String> form(String encoded) {
        Map<String, String> m = new HashMap<>();
        if (encoded != null) {
            for (String pair : encoded.split("&")) {
                int eq = pair.indexOf('=');
                m.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return m;
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.stop();
    }

    private static URI target() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
    }

    @ParameterizedTest
    @EnumSource(LoadSpec.HttpVersion.class)
    void loginThenWeightedMixWithCookiesCsrfAndPerKindFigures(LoadSpec.HttpVersion http) throws Exception {
        TestSpec spec = new TestSpec(target());
        spec.http = http;
        spec.streams = http == LoadSpec.HttpVersion.H2C ? 2 : 1;
        spec.clients = 4;
        spec.warmupRequests = 100;
        spec.requests = 2000;
        List<Interval> intervals = Collections.synchronizedList(new ArrayList<>());
        LoadDriver driver = new LoadDriver(spec.build(), traffic(Duration.ZERO));
        driver.intervalNanos = 50_000_000; // many cuts, so that the per-second adding up is tested
        DriverResult result = driver.run(intervals::add);

        assertEquals(0, result.errorCount(), result.errorSamples().toString());
        assertEquals(2000, result.requests());
        long quote = result.successesByKind().getOrDefault("quote", 0L);
        long buy = result.successesByKind().getOrDefault("buy", 0L);
        assertEquals(List.of("quote", "buy"), List.copyOf(result.byKind().keySet()), "login was in the warm-up");
        double share = (double) quote / (quote + buy);
        assertTrue(share > 0.68 && share < 0.82, "quote share " + share);

        long requests = 0;
        long latencies = 0;
        for (KindFigures f : result.byKind().values()) {
            requests += f.requests();
            latencies += f.latency().getTotalCount();
        }
        assertEquals(result.requests(), requests);
        assertEquals(result.latency().getTotalCount(), latencies);
        Map<String, Long> perSecond = new HashMap<>();
        for (Interval i : intervals) {
            long kinds = 0;
            for (Map.Entry<String, KindFigures> e : i.byKind().entrySet()) {
                kinds += e.getValue().requests();
                if (i.phase() == Phase.MEASURE) {
                    perSecond.merge(e.getKey(), e.getValue().successes(), Long::sum);
                }
            }
            assertEquals(i.successes() + i.errorCount(), kinds, "an interval's kinds add up to it");
        }
        assertEquals(result.successesByKind(), perSecond, "the intervals' kinds add up to the window's");
    }

    @Test
    void closedModelHonoursEachRequestsThinkTime() throws Exception {
        TestSpec spec = new TestSpec(target());
        spec.clients = 1;
        spec.eventLoops = 1;
        spec.requests = 5;
        spec.think = Duration.ofSeconds(30); // the run's think time; every request asks for its own instead
        long start = System.nanoTime();
        DriverResult result = new LoadDriver(spec.build(), traffic(Duration.ofMillis(100))).run(i -> { });
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(0, result.errorCount(), result.errorSamples().toString());
        assertEquals(5, result.requests());
        // 4 pauses of 100 ms between 5 requests (a slow machine only adds to it); the run's 30 s would time the test out
        assertTrue(result.measuredSeconds() >= 0.38, "measured " + result.measuredSeconds() + " s");
        assertTrue(seconds < 25, "took " + seconds + " s: the run's think time was used");
    }
}

package perflab.soapecho.it;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import perflab.core.sut.StartedServer;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.Traffic;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workloads;
import perflab.driver.ConnectionPolicy;
import perflab.driver.DriverResult;
import perflab.driver.LoadDriver;
import perflab.driver.LoadSpec;
import perflab.soapecho.contract.PerfContract;
import perflab.soapecho.lean.LeanSoapEchoServer;
import perflab.soapecho.testkit.InProcessStack;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * soap-echo's checks fail a server that does not echo: the driver, with soap-echo's traffic, first runs against the
 * real lean stack (no error), then against a loopback server that answers every request with one response recorded
 * from that stack, correct for the request it was recorded for, and well formed. With the cheap check alone (no deep
 * check sampled) every answer must be a validation error, in each operation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CannedResponseTest {
    private static final long REQUESTS = 300;
    /** A client index no run below uses: the recorded request's id is none of theirs. */
    private static final int RECORDING_CLIENT = 7;

    private StartedServer lean;
    private URI leanService;

    @BeforeAll
    void startLean() throws Exception {
        InProcessStack stack = LeanSoapEchoServer::start;
        lean = stack.startOnLoopback("--server-threads", "4");
        leanService = URI.create("http://127.0.0.1:" + lean.port() + PerfContract.SERVICE_PATH);
    }

    @AfterAll
    void stopLean() throws Exception {
        lean.stop();
    }

    @ParameterizedTest
    @ValueSource(strings = {PerfContract.ECHO_STRING, PerfContract.ECHO_BASE64, PerfContract.ECHO_COMPLEX_TYPE})
    void aServerAnsweringARecordedResponseFailsEveryCheck(String operation) throws Exception {
        Traffic traffic = traffic(operation, leanService);
        DriverResult real = drive(leanService, traffic, 1.0);
        assertEquals(REQUESTS, real.successes(), () -> operation + " on the lean stack, every answer deep-checked: "
                + real.errors() + " " + real.errorSamples());

        Request recorded = traffic.newSession(new ClientContext(RECORDING_CLIENT, 1)).next();
        byte[] canned = HttpClient.newHttpClient().send(HttpRequest.newBuilder(leanService)
                        .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(recorded.template().body(recorded))).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body();
        assertTrue(new String(canned, java.nio.charset.StandardCharsets.UTF_8).contains(operation + PerfContract.RESPONSE_SUFFIX),
                "the recording is the stack's answer");

        HttpServer replay = replaying(canned);
        try {
            URI replayService = URI.create("http://127.0.0.1:" + replay.getAddress().getPort() + PerfContract.SERVICE_PATH);
            DriverResult fooled = drive(replayService, traffic(operation, replayService), 0.0);
            assertEquals(0, fooled.successes(), () -> operation + ": a canned answer passed the cheap check; "
                    + fooled.errorSamples());
            assertEquals(REQUESTS, fooled.errors().getOrDefault(ErrorKind.VALIDATION, 0L),
                    () -> operation + ": " + fooled.errors() + " " + fooled.errorSamples());
            assertTrue(fooled.errorSamples().stream().anyMatch(s -> s.contains(operation.equals(PerfContract.ECHO_COMPLEX_TYPE)
                    ? "idout" : "id")), () -> fooled.errorSamples().toString());
        } finally {
            replay.stop(0);
        }
    }

    /**
     * The same for scenarios/soap-echo.yaml, whose checks are written in the file: its requests pass on the lean stack,
     * each checked in depth, and every one fails against an answer recorded for another of its requests.
     */
    @ParameterizedTest
    @ValueSource(strings = {PerfContract.ECHO_STRING, PerfContract.ECHO_BASE64, PerfContract.ECHO_COMPLEX_TYPE})
    void theScenarioFileFailsACannedServerToo(String operation) throws Exception {
        URI leanHost = URI.create("http://127.0.0.1:" + lean.port());
        DriverResult real = drive(leanHost, scenario(operation, leanHost), 1.0);
        assertEquals(REQUESTS, real.successes(), () -> operation + " from the scenario file on the lean stack: "
                + real.errors() + " " + real.errorSamples());

        ClientSession recording = scenario(operation, leanHost).newSession(new ClientContext(RECORDING_CLIENT, 1, 2));
        Request recorded = recording.next();
        for (int i = 0; i < 1000; i++) {
            recorded = recording.next(); // its counter past any a run below reaches: an answer to none of their requests
        }
        byte[] canned = HttpClient.newHttpClient().send(HttpRequest.newBuilder(leanService)
                        .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(recorded.template().body(recorded))).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body();
        HttpServer replay = replaying(canned);
        try {
            URI replayHost = URI.create("http://127.0.0.1:" + replay.getAddress().getPort());
            DriverResult fooled = drive(replayHost, scenario(operation, replayHost), 0.0);
            assertEquals(0, fooled.successes(), () -> operation + ": a canned answer passed the scenario's check; "
                    + fooled.errorSamples());
            assertEquals(REQUESTS, fooled.errors().getOrDefault(ErrorKind.VALIDATION, 0L),
                    () -> operation + ": " + fooled.errors() + " " + fooled.errorSamples());
        } finally {
            replay.stop(0);
        }
    }

    private static Traffic scenario(String operation, URI target) {
        String file = perflab.testsupport.PerflabProcess.home().resolve("scenarios/soap-echo.yaml").toString();
        return Workloads.named(file).traffic(new TrafficOptions(operation, target, 42L, Map.of()));
    }

    private static Traffic traffic(String operation, URI target) {
        return Workloads.named("soap-echo").traffic(new TrafficOptions(operation, target, 42L, Map.of("payload", "2")));
    }

    /** A closed-model run of {@link #REQUESTS} requests by 2 clients, no warm-up. */
    private static DriverResult drive(URI target, Traffic traffic, double deepCheckRatio) throws InterruptedException {
        LoadSpec spec = new LoadSpec(target, 2, 0, LoadSpec.Schedule.CONSTANT, null, REQUESTS, Duration.ZERO, 0,
                Duration.ZERO, ConnectionPolicy.PERSISTENT, Duration.ofSeconds(10), deepCheckRatio, 42, 1, 0,
                LoadSpec.HttpVersion.HTTP1, 1, null);
        return new LoadDriver(spec, traffic).run(interval -> { });
    }

    /** A loopback HTTP/1.1 server that answers every request with {@code body}, as a caching proxy gone wrong would. */
    private static HttpServer replaying(byte[] body) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "text/xml; charset=UTF-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "canned-response");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        return server;
    }
}

package perflab.driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.core.traffic.ErrorKind;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The driver over h2c (prior knowledge) against {@link H2EchoServer}, with the same {@link EchoTraffic} as HTTP/1.1. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class H2LoadDriverTest {
    private H2EchoServer server;
    private EchoTraffic traffic;

    /**
     * Several tests give the driver a 300 ms timeout, which also bounds the h2c SETTINGS exchange and a PING's
     * answer: a short run first loads the HTTP/2 classes of both sides, so that no test pays for that inside
     * its timeout, whichever runs first.
     */
    @BeforeAll
    static void loadTheHttp2Classes() throws InterruptedException {
        try (H2EchoServer warm = new H2EchoServer()) {
            TestSpec spec = new TestSpec(warm.uri());
            spec.http = LoadSpec.HttpVersion.H2C;
            spec.requests = 200;
            new LoadDriver(spec.build(), new EchoTraffic()).run(i -> { });
        }
    }

    @BeforeEach
    void start() throws InterruptedException {
        server = new H2EchoServer();
        traffic = new EchoTraffic();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private TestSpec h2(URI target, int clients, int streams) {
        TestSpec spec = new TestSpec(target);
        spec.http = LoadSpec.HttpVersion.H2C;
        spec.clients = clients;
        spec.streams = streams;
        return spec;
    }

    private DriverResult run(TestSpec spec) throws InterruptedException {
        return new LoadDriver(spec.build(), traffic).run(i -> { });
    }

    @Test
    void closedModelOneStreamPerConnectionMeasuresAnExactCount() throws Exception {
        server.gate.holdFirst(4); // no answer until every client's first request waits: every connection is open
        TestSpec spec = h2(server.uri(), 4, 1);
        spec.requests = 500;
        spec.warmupRequests = 100;
        DriverResult r = run(spec);
        assertTrue(r.complete(), r.endReason());
        assertEquals(500, r.successes(), () -> "errors: " + r.errors() + " " + r.errorSamples());
        assertEquals(500, r.requests());
        assertEquals(100, r.warmupRequests());
        assertEquals(4, server.connections.get());
        assertEquals(1, server.maxConcurrentStreams.get());
        assertTrue(server.streams.get() >= 600 && server.streams.get() <= 604, "streams " + server.streams.get());
        assertEquals(4, traffic.sessions.get());
        assertEquals(500L, r.successesByKind().get("echo"));
        assertTrue(r.bytesSent() > 500L * 20, "bytes sent " + r.bytesSent());
        assertTrue(r.bytesReceived() > 500L * 20, "bytes received " + r.bytesReceived());
    }

    @Test
    void closedModelFourStreamsPerConnectionSharesConnections() throws Exception {
        server.gate.holdFirst(8); // no answer until every client's first request waits: 4 streams on each connection
        TestSpec spec = h2(server.uri(), 8, 4);
        spec.requests = 1000;
        spec.warmupRequests = 100;
        spec.deepCheckRatio = 0.5;
        DriverResult r = run(spec);
        assertEquals(1000, r.successes(), () -> "errors: " + r.errors() + " " + r.errorSamples());
        assertEquals(2, server.connections.get(), "8 clients / 4 streams = 2 connections");
        assertEquals(4, server.maxConcurrentStreams.get());
        assertEquals(8, traffic.sessions.get());
        assertTrue(traffic.deepChecks.get() > 100 + 300, "deep checks " + traffic.deepChecks.get());
    }

    @Test
    void aServerStreamLimitBelowSCapsTheStreamsInFlight() throws Exception {
        try (H2EchoServer limited = new H2EchoServer(2)) {
            limited.gate.holdFirst(2); // no answer until the 2 streams the server allows are in flight
            TestSpec spec = h2(limited.uri(), 4, 4);
            spec.requests = 300;
            DriverResult r = run(spec);
            assertEquals(300, r.successes(), () -> r.errors() + " " + r.errorSamples());
            assertEquals(1, limited.connections.get());
            assertEquals(2, limited.maxConcurrentStreams.get());
        }
    }

    @Test
    void connectionsAreClientsOverStreamsRoundedUp() throws Exception {
        server.gate.holdFirst(5); // no answer until every client's first request waits: every connection is open
        TestSpec spec = h2(server.uri(), 5, 2);
        spec.requests = 200;
        DriverResult r = run(spec);
        assertEquals(200, r.successes(), () -> r.errorSamples().toString());
        assertEquals(3, server.connections.get());
        assertEquals(3, spec.build().connectionCount());
    }

    @Test
    void openModelDeliversTheRate() throws Exception {
        TestSpec spec = h2(server.uri(), 8, 4);
        spec.rate = 200;
        spec.duration = Duration.ofSeconds(3);
        DriverResult r = run(spec);
        assertTrue(r.complete());
        LoadDriverTest.assertScheduleDelivered(200, r);
        assertEquals(0, r.errorCount(), () -> r.errorSamples().toString());
        assertTrue(r.lag().getTotalCount() > 0);
        assertEquals(2, server.connections.get());
    }

    @Test
    void wrongAnswersAreValidationErrors() throws Exception {
        server.wrongId = true;
        TestSpec spec = h2(server.uri(), 4, 2);
        spec.duration = Duration.ofMillis(800);
        DriverResult r = run(spec);
        assertEquals(0, r.successes());
        assertTrue(r.errors().get(ErrorKind.VALIDATION) > 10, r.errors().toString());
        assertEquals(r.errorCount(), r.errors().get(ErrorKind.VALIDATION));
        assertTrue(r.errorSamples().get(0).contains("idout") && r.errorSamples().get(0).contains("HTTP 200"),
                r.errorSamples().get(0));
    }

    @Test
    void aBodyInSeveralDataFramesIsAggregated() throws Exception {
        server.splitBody = true;
        TestSpec spec = h2(server.uri(), 4, 2);
        spec.requests = 300;
        spec.deepCheckRatio = 1.0;
        DriverResult r = run(spec);
        assertEquals(300, r.successes(), () -> r.errorSamples().toString());
        assertTrue(traffic.deepChecks.get() >= 300);
    }

    @Test
    void anInterimResponseIsSkippedForTheRealOne() throws Exception {
        server.interimFirst = true;
        TestSpec spec = h2(server.uri(), 4, 2);
        spec.requests = 300;
        spec.deepCheckRatio = 1.0;
        DriverResult r = run(spec);
        assertEquals(300, r.successes(), () -> r.errors() + " " + r.errorSamples());
        assertTrue(traffic.deepChecks.get() >= 300);
    }

    @Test
    void coordinatedOmissionIsCorrectedWhenTheServerStalls() throws Exception {
        TestSpec spec = h2(server.uri(), 16, 4);
        spec.rate = 1000;
        spec.warmup = Duration.ofMillis(500);
        spec.duration = Duration.ofSeconds(3);
        DriverResult r = new LoadDriver(spec.build(), traffic)
                .run(LoadDriverTest.stallOnceMeasuring(() -> server.stallFor(1000)));
        LoadDriverTest.assertStallIsLatencyNotServiceTimeOrLag(spec.clients, r);
        LoadDriverTest.assertScheduleDelivered(1000, r);
    }

    @Test
    void aServerThatNeverAnswersGivesTimeoutsOnLiveConnections() throws Exception {
        server.neverAnswer = true;
        TestSpec spec = h2(server.uri(), 4, 2);
        spec.timeout = Duration.ofMillis(300);
        spec.duration = Duration.ofMillis(1500);
        DriverResult r = run(spec);
        LoadDriverTest.assertEndedOnTime(spec, r, System.currentTimeMillis());
        assertTrue(r.errors().get(ErrorKind.TIMEOUT) >= 8, r.errors().toString());
        assertEquals(r.errorCount(), r.errors().get(ErrorKind.TIMEOUT), r.errors().toString());
        assertEquals(0, r.successes());
        assertTrue(traffic.failedCallbacks.get() >= r.errors().get(ErrorKind.TIMEOUT));
        // the connections answer PINGs: timed-out streams are reset, the connections kept
        assertEquals(2, server.connections.get());
        assertTrue(server.resets.get() >= 8, "resets " + server.resets.get());
    }

    @Test
    void aFrozenConnectionIsClosedAsStuckAndReplaced() throws Exception {
        server.freeze = true;
        TestSpec spec = h2(server.uri(), 2, 2);
        spec.timeout = Duration.ofMillis(300);
        spec.duration = Duration.ofMillis(1500);
        DriverResult r = run(spec);
        assertTrue(r.errors().get(ErrorKind.TIMEOUT) >= 2, r.errors().toString());
        assertEquals(r.errorCount(), r.errors().get(ErrorKind.TIMEOUT), r.errors().toString());
        assertEquals(0, r.successes());
        // 300 ms to the timeout and the PING, 300 ms more without an answer: closed and opened again
        assertTrue(server.connections.get() >= 2, "connections " + server.connections.get() + " " + r.errors() + " " + r.errorSamples());
        assertTrue(r.errorSamples().stream().anyMatch(m -> m.contains("stuck")), r.errorSamples().toString());
    }

    @Test
    void aTimedOutStreamIsResetAndItsConnectionKeptWhileOthersAreAnswered() throws Exception {
        server.ignoreEvery = 200;
        TestSpec spec = h2(server.uri(), 4, 4);
        spec.timeout = Duration.ofMillis(300);
        spec.duration = Duration.ofMillis(1500);
        DriverResult r = run(spec);
        long timeouts = r.errors().get(ErrorKind.TIMEOUT);
        assertTrue(timeouts >= 2, r.errors().toString());
        assertEquals(r.errorCount(), timeouts, r.errors().toString());
        assertTrue(r.successes() > 100, "successes " + r.successes());
        assertTrue(server.resets.get() >= timeouts, "resets " + server.resets.get() + " timeouts " + timeouts + " connections " + server.connections.get() + " " + r.errorSamples() + " streams " + server.streams.get());
        assertEquals(1, server.connections.get(), "the connection answers other streams: not stuck, not replaced");
    }

    @Test
    void resetStreamsAreIoErrors() throws Exception {
        server.resetEach = true;
        TestSpec spec = h2(server.uri(), 4, 2);
        spec.requests = 100;
        DriverResult r = run(spec);
        assertEquals(100, r.errors().get(ErrorKind.IO), r.errors().toString());
        assertTrue(r.errorSamples().get(0).contains("RST_STREAM"), r.errorSamples().toString());
        // A reset would reconnect if it closed the connection: 100 resets, 100 connections. Not "== 2": with
        // resets answered at once, one connection can take all 100 before the other loop's is accepted.
        assertTrue(r.connectionsOpened() <= 2, "a reset stream leaves its connection open: opened " + r.connectionsOpened());
        assertTrue(server.connections.get() <= 2, "a reset stream leaves its connection open: accepted " + server.connections.get());
    }

    @Test
    void keepaliveNOpensANewConnectionAfterNStreams() throws Exception {
        TestSpec spec = h2(server.uri(), 4, 2);
        spec.connections = new ConnectionPolicy(10);
        spec.requests = 400;
        DriverResult r = run(spec);
        assertEquals(400, r.successes(), () -> r.errorSamples().toString());
        assertEquals(40, r.connectionsOpened(), 5);
    }

    @Test
    void aServersGoAwayIsHonouredByReconnecting() throws Exception {
        server.goAwayAfter = 20;
        TestSpec spec = h2(server.uri(), 2, 1); // one stream at a time: none is beyond the GOAWAY's last stream
        spec.requests = 400;
        DriverResult r = run(spec);
        assertEquals(400, r.successes(), () -> r.errors() + " " + r.errorSamples());
        assertEquals(20, r.connectionsOpened(), 3);
    }

    @Test
    void aClosedPortGivesConnectErrors() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            port = s.getLocalPort();
        }
        TestSpec spec = h2(URI.create("http://127.0.0.1:" + port + "/echo"), 4, 2);
        spec.duration = Duration.ofSeconds(1);
        DriverResult r = run(spec);
        assertTrue(r.errors().get(ErrorKind.CONNECT) >= 4, r.errors().toString());
        assertTrue(r.errors().get(ErrorKind.CONNECT) < 500, r.errors().toString());
        assertEquals(0, r.successes());
    }

    @Test
    void anHttp1OnlyServerFailsAsConnectNotSilently() throws Exception {
        try (EchoServer http1 = new EchoServer()) {
            TestSpec spec = h2(http1.uri(), 2, 2);
            spec.timeout = Duration.ofMillis(500);
            spec.duration = Duration.ofSeconds(1);
            DriverResult r = run(spec);
            assertEquals(0, r.successes());
            assertTrue(r.errors().get(ErrorKind.CONNECT) >= 2, r.errors().toString());
            assertTrue(r.errorSamples().get(0).contains("h2c"), r.errorSamples().toString());
        }
    }

    @Test
    void theSameTrafficRunsOverBothProtocols() throws Exception {
        try (EchoServer http1 = new EchoServer()) {
            TestSpec one = new TestSpec(http1.uri());
            one.requests = 300;
            DriverResult r1 = run(one);
            TestSpec two = h2(server.uri(), 4, 4);
            two.requests = 300;
            DriverResult r2 = run(two);
            assertEquals(300, r1.successes());
            assertEquals(300, r2.successes());
            assertTrue(http1.requests.get() >= 300);
            assertTrue(server.streams.get() >= 300, "the h2c server saw the requests as HTTP/2 streams");
        }
    }

    @Test
    void specValidatesStreamsAndProtocol() {
        URI t = server.uri();
        TestSpec none = h2(t, 4, 0);
        none.requests = 10;
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, none::build);
        assertTrue(zero.getMessage().contains("at least 1"), zero.getMessage());
        TestSpec http1 = new TestSpec(t);
        http1.requests = 10;
        http1.streams = 4;
        IllegalArgumentException mismatch = assertThrows(IllegalArgumentException.class, http1::build);
        assertTrue(mismatch.getMessage().contains("h2c"), mismatch.getMessage());
        assertEquals(LoadSpec.HttpVersion.H2C, LoadSpec.HttpVersion.parse("h2c"));
        assertEquals(LoadSpec.HttpVersion.HTTP1, LoadSpec.HttpVersion.parse("HTTP/1.1"));
        assertThrows(IllegalArgumentException.class, () -> LoadSpec.HttpVersion.parse("h3"));
        LoadSpec old = new LoadSpec(t, 3, 0, LoadSpec.Schedule.CONSTANT, null, 10, null, 0, null,
                ConnectionPolicy.PERSISTENT, Duration.ofSeconds(1), 0, 1, 1, 0);
        assertEquals(LoadSpec.HttpVersion.HTTP1, old.http());
        assertEquals(1, old.streamsPerConnection());
        assertEquals(3, old.connectionCount());
        TestSpec nine = h2(t, 9, 4);
        nine.requests = 10;
        assertEquals(3, nine.build().connectionCount());
    }
}

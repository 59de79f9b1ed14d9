package perflab.experiment.run;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.result.ServerWindow;
import perflab.core.workload.ServerCounters;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sampler against a real HTTP server: asynchronous ticks, flattening, the window, a missed second, the csv. */
class ServerCounterSamplerTest {
    private static final ServerCounters DECL = new ServerCounters("/stats", Set.of("live"), Set.of("lat"));
    private HttpServer server;
    private final AtomicInteger asked = new AtomicInteger();
    private volatile CountDownLatch hold = new CountDownLatch(0);

    private URI start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/stats", exchange -> {
            int n = asked.incrementAndGet();
            try {
                hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = ("{\"ops\":" + 10 * n + ",\"live\":" + n + ",\"name\":\"x\",\"nested\":{\"a\":{\"b\":" + n
                    + "}},\"lat\":{\"le\":{\"100\":" + n + "}}}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/ignored/path");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static void answered(ServerCounterSampler s, int samples) throws InterruptedException {
        s.awaitAnswer(Duration.ofSeconds(5));
        assertEquals(samples, s.samples().size());
    }

    @Test
    void samplesAtEachTickAndSummarisesTheWindow(@TempDir Path dir) throws Exception {
        try (ServerCounterSampler s = new ServerCounterSampler(DECL, start(), dir)) {
            assertEquals("/stats", s.uri().getPath());
            s.tick(1, "warmup");
            answered(s, 1);
            s.tick(2, "measure");
            answered(s, 2);
            s.tick(3, "measure");
            answered(s, 3);
            ServerWindow w = s.window();
            assertEquals(3, w.samples());
            assertEquals(0, w.missed());
            assertEquals(20, w.counters().get("ops").delta());
            assertEquals(2, w.counters().get("nested.a.b").delta());
            assertEquals(new ServerWindow.Gauge(2.5, 3, 3), w.gauges().get("live"));
            assertEquals(2, w.latencies().get("lat").count());
            assertEquals(0.1, w.latencies().get("lat").p99Ms());
            // from the window's first sample (the warm-up's last) to its last, by the samples' own clocks
            double span = (s.samples().get(2).epochMs() - s.samples().get(0).epochMs()) / 1000.0;
            assertEquals(span, w.seconds(), 0.0011, "window seconds");
        }
        List<String> rows = Files.readAllLines(dir.resolve(ServerCounterSampler.CSV));
        assertEquals(ServerCounterSampler.HEADER, rows.get(0));
        assertTrue(rows.stream().anyMatch(r -> r.startsWith("3,measure,") && r.contains(",ops,30,")), rows.toString());
        assertTrue(rows.stream().anyMatch(r -> r.startsWith("3,measure,") && r.contains(",live,3,")), rows.toString());
        assertTrue(rows.stream().anyMatch(r -> r.startsWith("3,measure,") && r.contains(",lat.p99Ms,0.100,")), rows.toString());
        assertTrue(rows.stream().noneMatch(r -> r.contains("lat.le.")), "buckets are the summary's");
    }

    @Test
    void aTickNeverWaitsForASlowServerAndItsSecondIsMissed(@TempDir Path dir) throws Exception {
        try (ServerCounterSampler s = new ServerCounterSampler(DECL, start(), dir)) {
            s.tick(1, "warmup");
            answered(s, 1);
            hold = new CountDownLatch(1);
            long t0 = System.nanoTime();
            s.tick(2, "measure");
            s.tick(3, "measure"); // the second is still unanswered: nothing asked
            // a tick that waited would wait until the latch opens, never: 5 s tells the two apart on a busy machine
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "ticks return at once");
            hold.countDown();
            answered(s, 2);
            assertEquals(2, asked.get());
            assertEquals(1, s.window().missed());
        }
    }

    @Test
    void noAnswerIsAMissedSampleNotAFailure(@TempDir Path dir) throws Exception {
        URI nothing = URI.create("http://127.0.0.1:1/");
        try (ServerCounterSampler s = new ServerCounterSampler(DECL, nothing, dir)) {
            s.tick(1, "measure");
            s.awaitAnswer(Duration.ofSeconds(5));
            assertEquals(0, s.samples().size());
            assertNull(s.window());
        }
        assertNull(ServerCounterSampler.parse("[1,2]"));
        assertNull(ServerCounterSampler.parse("not json"));
    }
}

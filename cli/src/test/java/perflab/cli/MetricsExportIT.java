package perflab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.PerflabProcess;
import perflab.testsupport.Poll;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code --metrics-export prometheus=PORT} scraped by a real Prometheus server (Debian's, started by the test on
 * loopback with a scrape a second): the run's warm-up and window arrive as series labelled with the run and its phase.
 */
class MetricsExportIT {
    private static final String HELLO = PerflabProcess.testWorkload("hello");
    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path work;

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPrometheusServerScrapesTheRunsWarmupAndWindow() throws Exception {
        assumeTrue(Files.isExecutable(PROMETHEUS), "prometheus is not installed (CI installs it: .ci/run)");
        int exported = perflab.core.process.LocalSockets.freePort();
        int web = perflab.core.process.LocalSockets.freePort();
        Path config = work.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 900ms
                scrape_configs:
                  - job_name: perflab
                    static_configs:
                      - targets: ["127.0.0.1:%d"]
                """.formatted(exported));
        Process prometheus = new ProcessBuilder(PROMETHEUS.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + work.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + web)
                .redirectErrorStream(true).redirectOutput(work.resolve("prometheus.log").toFile()).start();
        String api = "http://127.0.0.1:" + web;
        try {
            Poll.until("Prometheus ready", Duration.ofSeconds(60), () -> {
                try {
                    return get(api + "/-/ready").statusCode() == 200;
                } catch (Exception e) {
                    return false;
                }
            });
            try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--clients", "2", "--warmup", "3s",
                    "--duration", "4s", "--heap", "64m", "--gc", "serial", "--label", "live", "--history", "off",
                    "--metrics-export", "prometheus=" + exported)) {
                assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
                assertTrue(p.out().contains("perflab: live metrics for Prometheus at http://127.0.0.1:" + exported + "/metrics"),
                        p.out());
            }
            JsonNode window = query(api, "max_over_time(perflab_throughput{job=\"perflab\",phase=\"window\"}[5m])");
            assertEquals(1, window.size(), window.toString());
            JsonNode metric = window.get(0).get("metric");
            assertEquals("hello", metric.get("workload").asText(), metric.toString());
            assertEquals("live", metric.get("label").asText(), metric.toString());
            assertTrue(window.get(0).get("value").get(1).asDouble() > 0, window.toString());
            JsonNode warmup = query(api, "max_over_time(perflab_requests_total{phase=\"warmup\"}[5m])");
            assertEquals(1, warmup.size(), warmup.toString());
            assertTrue(warmup.get(0).get("value").get(1).asDouble() > 0, warmup.toString());
            JsonNode p99 = query(api, "max_over_time(perflab_latency_p99_seconds{phase=\"window\"}[5m])");
            double seconds = p99.get(0).get("value").get(1).asDouble();
            assertTrue(seconds > 0 && seconds < 10, "p99 in seconds: " + p99);

            // an experiment's runs export one after another on the same port, each named by its configuration
            Path experiment = work.resolve("exp");
            try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "tune", "hello", "--clients", "1,2", "--repeat",
                    "1", "--warmup", "1s", "--duration", "3s", "--heap", "64m", "--gc", "serial", "--history", "off",
                    "--quiet", "--out", experiment.toString(), "--metrics-export", "prometheus=" + exported)) {
                assertEquals(0, p.await(Duration.ofSeconds(180)), p.err());
                assertFalse(p.err().contains("--metrics-export"), p.err());
            }
            JsonNode runs = query(api, "max_over_time(perflab_throughput{experiment=\"exp\",phase=\"window\"}[5m])");
            assertEquals(2, runs.size(), runs.toString());
            java.util.Set<String> names = new java.util.TreeSet<>();
            runs.forEach(r -> names.add(r.get("metric").get("run").asText()));
            assertEquals(2, names.size(), names.toString());
            assertTrue(names.stream().allMatch(n -> n.endsWith("/rep-1")), names.toString());
        } finally {
            prometheus.destroy();
            if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly();
            }
        }
    }

    private static JsonNode query(String api, String promql) throws Exception {
        HttpResponse<String> r = get(api + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        assertEquals(200, r.statusCode(), r.body());
        JsonNode body = new ObjectMapper().readTree(r.body());
        assertEquals("success", body.get("status").asText(), r.body());
        return body.get("data").get("result");
    }
}

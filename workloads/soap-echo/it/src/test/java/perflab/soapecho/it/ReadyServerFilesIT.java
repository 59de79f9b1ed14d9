package perflab.soapecho.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.PerflabProcess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ready server files of servers/ that serve soap-echo, each run end to end with every answer checked in depth:
 * soap-echo on a real product, Apache Tomcat 11 from Maven Central started by its own catalina.sh, with soap-echo's
 * CXF service deployed as the WAR perflab builds; the lean stack started as a plain command; and Debian's nginx, a
 * server that is no JVM, as a reverse proxy in front of the lean stack that perflab serve keeps up.
 */
class ReadyServerFilesIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    @Test
    void soapEchoOnTomcatAnswersEveryRequestRightWithTheSettingsUnderTest() throws Exception {
        Path file = PerflabProcess.home().resolve("servers/tomcat-soap-echo.yaml");
        Path out = work.resolve("run");
        try (PerflabProcess p = PerflabProcess.start(work, "run", file.toString(), "--set", "threads=12",
                "--set", "max-keep-alive-requests=-1", "--clients", "4", "--warmup", "5s", "--duration", "5s",
                "--deep-check", "1", "--heap", "256m", "--gc", "parallel", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofMinutes(5)), p.err() + p.out());
        }
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals("soap-echo", summary.get("workload").asText());
        assertEquals("tomcat-soap-echo", summary.get("stack").asText());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        assertTrue(summary.get("requests").asLong() > 100, summary.toString());
        assertTrue(summary.get("sut").get("cpuSeconds").asDouble() > 0.5, summary.toString());
        assertEquals("parallel", summary.get("gc").get("collector").asText(), "--gc reached Tomcat's JVM: " + summary);

        // the settings in the run's copy of Tomcat; the cached distribution as it was unpacked
        String serverXml = Files.readString(out.resolve("sut-home/conf/server.xml"));
        assertTrue(serverXml.contains("maxThreads=\"12\"") && serverXml.contains("maxKeepAliveRequests=\"-1\""), serverXml);
        assertTrue(Files.exists(out.resolve("sut-home/logs")), "Tomcat's logs are the run's");
        Path cached;
        try (Stream<Path> homes = Files.list(work.resolve("cache/perflab/homes/org.apache.tomcat/tomcat/11.0.24"))) {
            cached = homes.findFirst().orElseThrow();
        }
        String stock = Files.readString(cached.resolve("conf/server.xml"));
        assertTrue(stock.contains("port=\"8080\"") && !stock.contains("maxThreads=\"12\""), "the distribution is untouched");
        try (Stream<Path> logs = Files.list(cached.resolve("logs"))) {
            assertFalse(logs.findAny().isPresent(), "nothing written into the distribution's logs");
        }
        JsonNode run = JSON.readTree(out.resolve("run.json").toFile());
        assertTrue(run.get("server").get("home").asText().endsWith("apache-tomcat-11.0.24"), run.get("server").toString());
        assertTrue(run.get("server").get("env").get("CATALINA_OPTS").asText().contains("-Xmx256m"), run.get("server").toString());
        assertEquals("parallel", run.get("effectiveJvm").get("collector").asText(), run.toString());
        assertEquals(256, run.get("effectiveJvm").get("heapMaxMb").asLong(), run.toString());
    }

    @Test
    void theLeanStackAsAPlainCommandAnswersEveryRequestRight() throws Exception {
        Path file = PerflabProcess.home().resolve("servers/soap-echo-lean.yaml");
        Path out = work.resolve("lean");
        try (PerflabProcess p = PerflabProcess.start(work, "run", file.toString(), "--set", "threads=16",
                "--clients", "4", "--warmup", "3s", "--duration", "3s", "--deep-check", "1", "--heap", "128m",
                "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofMinutes(3)), p.err() + p.out());
        }
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals("soap-echo-lean", summary.get("stack").asText());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        assertTrue(summary.get("requests").asLong() > 100, summary.toString());
        JsonNode run = JSON.readTree(out.resolve("run.json").toFile());
        String command = run.get("processes").get("sut").get("command").toString();
        assertTrue(command.contains("\"--server-threads\",\"16\"") && command.contains("-Xmx128m"), command);
        assertEquals(128, run.get("effectiveJvm").get("heapMaxMb").asLong(), run.toString());
    }

    @Test
    void nginxAsAReverseProxyInFrontOfTheLeanStackIsMeasuredAsAServerThatIsNoJvm() throws Exception {
        Path serveDir = Files.createDirectories(work.resolve("serve"));
        try (PerflabProcess upstream = PerflabProcess.start(serveDir, "serve", "soap-echo", "--port", "0", "--heap", "128m",
                "--out", serveDir.resolve("logs").toString())) {
            String port = upstream.awaitLine(java.util.regex.Pattern.compile("at http://127\\.0\\.0\\.1:(\\d+)/"));
            Path file = PerflabProcess.home().resolve("servers/nginx-proxy.yaml");
            Path out = work.resolve("nginx");
            try (PerflabProcess p = PerflabProcess.start(work, "run", "soap-echo", "--server", file.toString(), "--set",
                    "upstream=127.0.0.1:" + port, "--set", "upstream-keepalive=8", "--clients", "4", "--warmup", "3s",
                    "--duration", "3s", "--deep-check", "1", "--out", out.toString())) {
                assertEquals(0, p.await(Duration.ofMinutes(3)), p.err() + p.out());
            }
            JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
            assertEquals("nginx-proxy", summary.get("stack").asText());
            assertEquals(0, summary.get("errors").get("total").asLong(), "every answer the lean stack's, checked in full "
                    + "through nginx: " + summary);
            assertTrue(summary.get("requests").asLong() > 100, summary.toString());
            // nginx's master only watches: the CPU is its worker's, a child in its tree
            assertTrue(summary.get("sut").get("cpuSeconds").asDouble() > 0.05, summary.toString());
            assertFalse(summary.has("gc"), "no JVM, no GC figures: " + summary);
            String conf = Files.readString(out.resolve("sut-home/nginx.conf"));
            assertTrue(conf.contains("server 127.0.0.1:" + port + ";") && conf.contains("keepalive 8;"), conf);
            try (Stream<Path> left = Files.list(PerflabProcess.home().resolve("servers/nginx"))) {
                assertEquals(java.util.List.of("nginx.conf"), left.map(f -> f.getFileName().toString()).toList(),
                        "nothing written beside the template");
            }
            upstream.signal("INT");
            upstream.await(Duration.ofSeconds(30));
        }
    }
}

package perflab.claims.it;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `perflab run claims` starts the back-end JVM and the gateway in front of it, drives a mediation, validates every answer. */
class ClaimsRunIT {
    @TempDir
    Path work;

    @Test
    void compositeMediationEndToEnd() throws Exception {
        Path out = work.resolve("claims");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "claims", "--operation", "composite",
                "--request-size", "3k", "--response-size", "10k", "--clients", "4", "--warmup", "2s",
                "--duration", "3s", "--heap", "256m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals("claims", summary.get("workload").asText());
        assertEquals("composite", summary.get("operation").asText());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        assertTrue(summary.get("successes").asLong() > 0, summary.toString());
        // composite routes by region: one request kind per region, adding up to the totals in the window and per second
        JsonNode byKind = summary.get("byKind");
        assertTrue(byKind.size() > 1, byKind.toString());
        long requests = 0;
        long successes = 0;
        for (JsonNode k : byKind) {
            requests += k.get("requests").asLong();
            successes += k.get("successes").asLong();
            assertEquals(k.get("successes").asLong(), k.get("latencyMs").get("count").asLong(), k.toString());
        }
        assertEquals(summary.get("requests").asLong(), requests, byKind.toString());
        assertEquals(summary.get("successes").asLong(), successes, byKind.toString());
        java.util.Map<String, Long> perSecond = new java.util.HashMap<>();
        List<String> rows = java.nio.file.Files.readAllLines(out.resolve("timeseries-kinds.csv"));
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",");
            if (f[1].equals("measure")) {
                perSecond.merge(f[3], Long.parseLong(f[6]), Long::sum);
            }
        }
        byKind.fields().forEachRemaining(e -> assertEquals(e.getValue().get("successes").asLong(),
                perSecond.getOrDefault(e.getKey(), 0L), "timeseries-kinds.csv " + e.getKey()));
        // the back end runs in its own JVM (the default): a companion perflab starts first and monitors
        JsonNode backend = summary.get("processes").get("backend");
        assertTrue(backend != null && backend.get("cpuSeconds").asDouble() > 0, summary.toString());
        assertTrue(backend.get("pid").asLong() != summary.get("sut").get("pid").asLong(), summary.toString());
        assertEquals(summary.get("sut"), summary.get("processes").get("sut"), summary.toString());
        JsonNode processes = new ObjectMapper().readTree(out.resolve("run.json").toFile()).get("processes");
        int backendPort = processes.get("backend").get("ports").get("port").asInt();
        assertTrue(processes.get("sut").get("command").toString().contains("\"http://127.0.0.1:" + backendPort + "\""),
                processes.toString());
        assertEquals(0, processes.get("backend").get("exitStatus").asInt(), processes.toString());
        assertTrue(java.nio.file.Files.readString(out.resolve("backend.out")).contains("PERFLAB-READY port=" + backendPort));
        assertTrue(java.nio.file.Files.exists(out.resolve("backend-gc.log")));
        // both JVMs' compiler threads are watched (a back end still compiling costs several times more)
        assertTrue(backend.get("jitCpuSeconds").isNumber(), backend.toString());
        assertTrue(summary.get("sut").get("jitCpuSeconds").isNumber(), summary.toString());
    }

    /** The camel stack under the same driver: routing with the field late, sizes given as one value. */
    @Test
    void camelRoutesWithTheFieldLate() throws Exception {
        Path out = work.resolve("camel");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "claims", "--stack", "camel", "--operation",
                "route-on-body", "--sizes", "10k/3k", "--routing-field-position", "late", "--backend-timeout", "5s",
                "--clients", "4", "--warmup", "2s", "--duration", "3s", "--heap", "256m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals("camel", summary.get("stack").asText());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        assertTrue(summary.get("successes").asLong() > 0, summary.toString());
        JsonNode run = new ObjectMapper().readTree(out.resolve("run.json").toFile());
        String text = run.toString();
        assertTrue(text.contains("\"routing-field-position\":\"late\"") && text.contains("\"sizes\":\"10k/3k\""), text);
        assertTrue(text.contains("\"backend-timeout\":\"5000ms\""), text);
    }
}

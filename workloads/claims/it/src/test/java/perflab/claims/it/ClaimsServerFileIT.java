package perflab.claims.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.PerflabProcess;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * servers/claims-lean.yaml: a server file's server that needs a companion. perflab starts claims' back end first,
 * fills its port into the gateway's command ({backend.url}), measures both, and ends both.
 */
class ClaimsServerFileIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    @Test
    void theGatewayFromAFileMediatesForTheBackEndPerflabStartsBesideIt() throws Exception {
        Path out = work.resolve("run");
        try (PerflabProcess p = PerflabProcess.start(work, "run", PerflabProcess.home().resolve("servers/claims-lean.yaml")
                .toString(), "--operation", "composite", "--set", "threads=16", "--clients", "4", "--warmup", "3s",
                "--duration", "3s", "--deep-check", "1", "--heap", "256m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofMinutes(3)), p.err() + p.out());
        }
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals("claims-lean", summary.get("stack").asText());
        assertEquals(0, summary.get("errors").get("total").asLong(), "every mediated answer checked in full: " + summary);
        assertTrue(summary.get("requests").asLong() > 50, summary.toString());
        // the back end did its share of the work, measured apart from the gateway
        assertTrue(summary.get("processes").get("backend").get("cpuSeconds").asDouble() > 0.05, summary.toString());
        assertTrue(summary.get("sut").get("cpuSeconds").asDouble() > 0.1, summary.toString());
        JsonNode run = JSON.readTree(out.resolve("run.json").toFile());
        JsonNode backend = run.get("processes").get("backend");
        String command = run.get("processes").get("sut").get("command").toString();
        int backendPort = backend.get("ports").get("port").asInt();
        assertTrue(command.contains("\"--backend-url\",\"http://127.0.0.1:" + backendPort + "\""), command + " " + backend);
        assertTrue(command.contains("\"--server-threads\",\"16\""), command);
        PerflabProcess.assertGone(backend.get("pid").asLong());
    }
}

package perflab.cli;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `--clients 1,3` runs one measurement per value into one directory and writes the harness's table. */
class ClientScalingIT {
    private static final String HELLO = PerflabProcess.testWorkload("hello");

    @TempDir
    Path work;

    @Test
    void oneRunPerClientCountAndTheTable() throws Exception {
        Path out = work.resolve("scaling");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--clients", "1,3", "--warmup", "1s",
                "--duration", "2s", "--heap", "128m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(180)), p.err());
            assertTrue(p.out().contains("| clients | throughput per client"), p.out());
        }
        ObjectMapper json = new ObjectMapper();
        for (int n : new int[]{1, 3}) {
            JsonNode summary = json.readTree(out.resolve("clients-" + n + "/summary.json").toFile());
            assertEquals(n, summary.get("clients").asInt());
            assertTrue(summary.get("complete").asBoolean());
            assertEquals(0, summary.get("errors").get("total").asLong());
        }
        List<String> csv = Files.readAllLines(out.resolve("clients.csv"));
        assertEquals(3, csv.size(), csv.toString());
        assertTrue(csv.get(0).startsWith("clients,throughputPerClient,throughput,meanMs,p50Ms,p99Ms,errors"));
        assertTrue(csv.get(1).startsWith("1,") && csv.get(2).startsWith("3,"), csv.toString());
        String[] three = csv.get(2).split(",");
        // the harness's meaning: per-client throughput is the total divided by the clients
        assertEquals(Double.parseDouble(three[2]) / 3, Double.parseDouble(three[1]), 0.02);
        assertTrue(Files.readString(out.resolve("clients.md")).contains("| 3 |"));
    }
}

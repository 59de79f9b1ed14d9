package perflab.cli;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example of docs/adding-a-workload.md (test-workloads/notes), a workload the CLI has never heard of, runs
 * through `perflab run` from its own jar: its flags are taken, its companion starts first and is monitored, and
 * every request kind of its stateful scenario (login, cookie, mix, values carried between pages) has figures.
 */
class NotesWorkloadIT {
    private static final String NOTES = PerflabProcess.testWorkload("notes");

    @TempDir
    Path work;

    @Test
    void theExampleWorkloadRunsWithPerKindFiguresAndACompanion() throws Exception {
        Path out = work.resolve("notes");
        try (PerflabProcess p = PerflabProcess.startWith(work, NOTES, "run", "notes", "--clients", "4",
                "--add-share", "30", "--store-latency", "1ms", "--warmup", "2s", "--duration", "4s",
                "--heap", "128m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        JsonNode byKind = summary.get("byKind");
        for (String kind : new String[] {"list", "view", "add"}) {
            assertTrue(byKind.get(kind).get("successes").asLong() > 0, kind + ": " + byKind);
        }
        // about 30% of the requests after the logins add a note: a wide band, the mix is random per client
        double adds = byKind.get("add").get("successes").asDouble();
        double all = summary.get("successes").asDouble();
        assertTrue(adds / all > 0.15 && adds / all < 0.45, "adds " + adds + " of " + all);
        JsonNode store = summary.get("processes").get("store");
        assertTrue(store.get("cpuSeconds").asDouble() > 0, summary.get("processes").toString());
        JsonNode processes = new ObjectMapper().readTree(out.resolve("run.json").toFile()).get("processes");
        int storePort = processes.get("store").get("ports").get("port").asInt();
        assertTrue(processes.get("sut").get("command").toString().contains("http://127.0.0.1:" + storePort),
                processes.toString());
        assertTrue(processes.get("store").get("command").toString().contains("\"--latency\",\"1ms\""), processes.toString());
        assertTrue(Files.readString(out.resolve("processes.csv")).contains(",store,"));
    }

    @Test
    void aFlagOfTheExampleIsRefusedForAnotherWorkload() throws Exception {
        try (PerflabProcess p = PerflabProcess.startWith(work, NOTES + ":" + PerflabProcess.testWorkload("hello"), "run", "hello", "--add-share", "30")) {
            assertEquals(2, p.await(Duration.ofSeconds(60)));
            assertEquals("perflab: --add-share is not a setting of workload hello; its settings: --size\n", p.err());
        }
    }
}

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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --agents local:2}: two agent JVMs drive the real hello SUT (test-workloads/hello), the controller merges them. The merged counts are
 * the agents' sums and the series adds up to them; an open-model rate split over the agents lands on the rate; a
 * SIGKILLed agent voids the run and nothing is left running.
 */
class AgentsIT {
    private static final String HELLO = PerflabProcess.testWorkload("hello");

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    @Test
    void aClosedRunFromTwoAgentsIsTheirSumToTheRequest() throws Exception {
        Path out = work.resolve("closed");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--clients", "4", "--warmup", "2s",
                "--duration", "4s", "--agents", "local:2", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
        }
        JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());
        assertTrue(s.get("complete").asBoolean(), s.get("endReason").asText());
        JsonNode agents = s.get("agents");
        assertEquals(List.of("local-1", "local-2"), fieldNames(agents));
        long sum = 0;
        for (JsonNode a : agents) {
            assertTrue(a.get("requests").asLong() > 0, a.toString());
            assertTrue(a.get("cpuMicrosPerRequest").asDouble() > 0, a.toString());
            assertFalse(a.has("lost"), a.toString());
            sum += a.get("requests").asLong();
        }
        assertEquals(s.get("requests").asLong(), sum, "the merged requests are the agents' sum");
        assertEquals(sum, measuredRequests(out), "timeseries.csv's measured seconds add up to the agents' totals");
        for (JsonNode a : agents) {
            PerflabProcess.assertGone(a.get("pid").asLong());
        }
    }

    @Test
    void anOpenRateSplitOverTwoAgentsLandsWithinOnePercent() throws Exception {
        Path out = work.resolve("open");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--rate", "400", "--clients", "8",
                "--warmup", "2s", "--duration", "6s", "--agents", "local:2", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
        }
        JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());
        double throughput = s.get("throughput").asDouble();
        assertTrue(Math.abs(throughput - 400) <= 4, "400 req/s over two agents came out at " + throughput);
        for (JsonNode a : s.get("agents")) {
            double each = a.get("throughput").asDouble();
            assertTrue(Math.abs(each - 200) <= 4, "each agent's half: " + a);
        }
    }

    @Test
    void aKilledAgentVoidsTheRunAndNothingIsLeftRunning() throws Exception {
        Path out = work.resolve("killed");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--clients", "4", "--warmup", "1s",
                "--duration", "60s", "--agents", "local:2", "--out", out.toString())) {
            p.awaitLine(java.util.regex.Pattern.compile(java.util.regex.Pattern.quote("[measure]     2/")));
            List<ProcessHandle> before = p.process.descendants().toList();
            ProcessHandle agent = before.stream()
                    .filter(h -> h.info().commandLine().orElse("").contains("--name local-2")).findFirst()
                    .orElseThrow(() -> new AssertionError("no agent local-2 among " + before.size() + " processes"));
            new ProcessBuilder("kill", "-9", Long.toString(agent.pid())).inheritIO().start().waitFor();
            int status = p.await(Duration.ofSeconds(60));
            assertNotEquals(0, status, "a void run fails");
            assertTrue(p.out().contains("the run is void: agent local-2 lost"), p.out());
            for (ProcessHandle h : before) {
                PerflabProcess.assertGone(h.pid());
            }
        }
        JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());
        assertFalse(s.get("complete").asBoolean());
        assertTrue(s.get("endReason").asText().startsWith("void: agent local-2 lost"), s.get("endReason").asText());
        assertTrue(s.get("agents").get("local-2").has("lost"), s.get("agents").toString());
        assertTrue(s.get("agents").get("local-1").get("requests").asLong() > 0, "what local-1 measured is kept");
    }

    @Test
    void ctrlCStopsTheAgentsAndKeepsWhatTheyMeasured() throws Exception {
        Path out = work.resolve("interrupted");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--clients", "4", "--warmup", "1s",
                "--duration", "60s", "--agents", "local:2", "--out", out.toString())) {
            p.awaitLine(java.util.regex.Pattern.compile(java.util.regex.Pattern.quote("[measure]     2/")));
            List<ProcessHandle> agents = agentsOf(p);
            p.signal("INT");
            assertEquals(130, p.await(Duration.ofSeconds(60)), p.err());
            for (ProcessHandle h : agents) {
                PerflabProcess.assertGone(h.pid());
            }
        }
        JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());
        assertFalse(s.get("complete").asBoolean());
        assertEquals("interrupted", s.get("endReason").asText());
        assertTrue(s.get("requests").asLong() > 0, s.toString());
        assertEquals(s.get("requests").asLong(), s.get("agents").get("local-1").get("requests").asLong()
                + s.get("agents").get("local-2").get("requests").asLong(), "the partial run is still the agents' sum");
    }

    @Test
    void aKilledControllerLeavesNoAgentRunning() throws Exception {
        Path out = work.resolve("controller-killed");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--clients", "4", "--warmup", "1s",
                "--duration", "60s", "--agents", "local:2", "--out", out.toString())) {
            p.awaitLine(java.util.regex.Pattern.compile(java.util.regex.Pattern.quote("[measure]     2/")));
            List<ProcessHandle> agents = agentsOf(p);
            p.signal("KILL");
            p.await(Duration.ofSeconds(30));
            for (ProcessHandle h : agents) {
                PerflabProcess.assertGone(h.pid()); // their stream and their input closed with the controller
            }
        }
    }

    /** The agent JVMs under a perflab process. */
    private static List<ProcessHandle> agentsOf(PerflabProcess p) {
        List<ProcessHandle> agents = p.process.descendants()
                .filter(h -> h.info().commandLine().orElse("").contains("perflab.agents.AgentMain")).toList();
        assertEquals(2, agents.size(), "two agent JVMs");
        return agents;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The measured seconds' successes and errors in timeseries.csv. */
    private static long measuredRequests(Path run) throws Exception {
        List<String> rows = Files.readAllLines(run.resolve("timeseries.csv"));
        List<String> header = List.of(rows.get(0).split(","));
        int phase = header.indexOf("phase");
        int ok = header.indexOf("successes");
        int errors = header.indexOf("errors");
        long sum = 0;
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",");
            if (f[phase].equals("measure")) {
                sum += Long.parseLong(f[ok]) + Long.parseLong(f[errors]);
            }
        }
        return sum;
    }
}

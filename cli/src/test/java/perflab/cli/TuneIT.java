package perflab.cli;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.Poll;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `perflab tune` as a real process against the real hello SUT (test-workloads/hello): short runs of 2 s measured. What these tests hold is
 * the experiment's bookkeeping (failures recorded, resumption, the stop rule), not the figures' quality, so the runs
 * of the configuration matrix and of the adaptive repetition (10 runs with load) go without a warm-up; the rate
 * sweep, whose throughput is asserted, keeps its 1 s.
 */
class TuneIT {
    private static final String HELLO = PerflabProcess.testWorkload("hello");

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    /**
     * 3 configurations x 2 repetitions, one of which the JVM refuses: the failure is recorded and the experiment
     * goes on; Ctrl-C after the first run keeps it, and --resume runs only what is missing.
     */
    @Test
    void failedConfigurationIsRecordedAndAnInterruptedExperimentResumes() throws Exception {
        Files.writeString(work.resolve("tiny.yaml"), """
                name: tiny
                workload: hello
                repeat: 2
                clients: 2
                warmup: 0s
                duration: 2s
                heap: 64m
                matrix:
                  gc: [serial, parallel]
                  jvm: ["", -XX:+NoSuchFlag]
                """);
        Path dir = work.resolve("exp");
        Path firstRun = dir.resolve("01-gc-serial-jvm-none/rep-1");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "tune", "tiny.yaml", "--out", dir.toString(), "--quiet")) {
            Poll.until("the first run to finish", Duration.ofSeconds(120), () -> {
                if (!p.process.isAlive()) {
                    throw new AssertionError("perflab tune ended before its first run finished: " + p.out() + p.err());
                }
                return Files.exists(firstRun.resolve("summary.json"));
            });
            p.signal("INT");
            p.await(Duration.ofSeconds(90));
            assertTrue(p.out().contains("configuration 1 of 4") && p.out().contains("repetition 1 of 2"), p.out());
        }
        JsonNode interrupted = JSON.readTree(dir.resolve("experiment.json").toFile());
        assertEquals("interrupted", interrupted.get("status").asText(), interrupted.toString());
        assertTrue(Files.readString(dir.resolve("report.md")).contains("| GC policy | JVM flags |"));
        String firstStart = JSON.readTree(firstRun.resolve("run.json").toFile()).get("startedAt").asText();
        assertTrue(Files.exists(dir.resolve("experiment.yaml")));

        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "tune", "--resume", dir.toString(), "--quiet")) {
            assertEquals(0, p.await(Duration.ofSeconds(240)), p.err());
            assertTrue(p.out().contains("resuming: 1 of 8 runs already finished"), p.out());
        }
        assertEquals(firstStart, JSON.readTree(firstRun.resolve("run.json").toFile()).get("startedAt").asText(),
                "a finished run is kept, not run again");
        // the commands that ran it, a line per start, and the commit and machine, at the directory's top
        assertEquals(List.of("./perflab tune tiny.yaml --out " + dir + " --quiet", "./perflab tune --resume " + dir + " --quiet"),
                Files.readAllLines(dir.resolve("command")));
        JsonNode environment = JSON.readTree(dir.resolve("environment.json").toFile());
        assertEquals(JSON.readTree(firstRun.resolve("run.json").toFile()).get("environment"), environment);
        JsonNode r = JSON.readTree(dir.resolve("experiment.json").toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        assertEquals(8, r.get("runsDone").asInt());
        JsonNode configs = r.get("configurations");
        assertEquals(4, configs.size());
        for (int i : new int[]{0, 2}) {
            JsonNode c = configs.get(i);
            assertEquals("ok", c.get("status").asText(), c.toString());
            assertEquals(2, c.get("stats").get("runs").asInt(), c.toString());
            assertTrue(c.get("stats").get("throughput").get("mean").asDouble() > 0, c.toString());
            assertTrue(c.get("stats").get("throughput").has("ciLow"), c.toString());
            assertEquals(0, c.get("stats").get("errors").asLong(), c.toString());
            assertEquals(i == 0 ? "serial" : "parallel", c.get("runs").get(0).get("collector").asText(), c.toString());
        }
        for (int i : new int[]{1, 3}) {
            JsonNode c = configs.get(i);
            assertEquals("failed", c.get("status").asText(), c.toString());
            assertTrue(c.get("failureReason").asText().contains("NoSuchFlag"), c.toString());
        }
        assertTrue(configs.get(2).get("gain").has("pValue"), configs.get(2).toString());
        assertTrue(r.get("failures").size() >= 2, r.toString());
        // serial against parallel in 2 s runs: named best only if one beats the other beyond noise; either way the
        // evidence compares the two configurations that ran
        JsonNode best = r.get("best");
        JsonNode evidence = best.get("evidence");
        assertTrue(List.of("01-gc-serial-jvm-none", "03-gc-parallel-jvm-none").contains(evidence.get("leader").asText())
                && List.of("01-gc-serial-jvm-none", "03-gc-parallel-jvm-none").contains(evidence.get("comparedWith").asText()),
                best.toString());
        assertTrue(best.hasNonNull("label") ? best.get("label").asText().equals(evidence.get("leader").asText())
                : best.get("reason").asText().contains("beyond noise") || best.get("reason").asText().startsWith("too few runs"),
                best.toString());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(5, csv.size(), csv.toString());
        assertTrue(csv.get(0).startsWith("label,name,gc,jvm,status,runs,throughputMean"), csv.get(0));
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("**Best configuration:**") && md.contains("## Failures"), md);
        for (String rep : List.of("rep-1", "rep-2")) {
            assertTrue(Files.exists(dir.resolve("03-gc-parallel-jvm-none").resolve(rep).resolve("summary.json")), rep);
        }
    }

    /** A comma list on --rate alone is a rate sweep: the curve, and the highest rate that met the goal. */
    @Test
    void rateSweepFromFlags() throws Exception {
        Path dir = work.resolve("sweep");
        // rates far below what the SUT serves even on one busy CPU while its JIT is still at work (a suite with one
        // CPU kept busy saw 200 req/s after a 1 s warm-up at a p99 of 1.3 s): the sweep's bookkeeping is under test
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "tune", "hello", "--rate", "40,80", "--clients", "4",
                "--warmup", "2s", "--duration", "2s", "--heap", "64m", "--repeat", "1", "--p99-ms", "2000",
                "--out", dir.toString(), "--quiet")) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
        }
        JsonNode r = JSON.readTree(dir.resolve("experiment.json").toFile());
        assertEquals("rate-sweep", r.get("kind").asText());
        JsonNode points = r.get("rateSweep").get("points");
        assertEquals(2, points.size(), r.toString());
        assertEquals(40, points.get(0).get("rate").asDouble());
        assertTrue(points.get(1).get("throughput").asDouble() > 60, points.toString());
        assertEquals(80, r.get("rateSweep").get("maxRateMeetingGoal").asDouble(), r.toString());
        assertEquals("open", JSON.readTree(dir.resolve("02-rate-80/rep-1/summary.json").toFile()).get("model").asText());
        String yaml = Files.readString(dir.resolve("experiment.yaml"));
        assertTrue(yaml.contains("rate-sweep") && yaml.contains("p99-ms"), yaml);
        assertFalse(Files.readString(dir.resolve("report.md")).isBlank());
    }

    /**
     * --repeat auto:3 runs rounds and judges them as the runner goes: three rounds at most here, so the experiment
     * ends after the third with its reason recorded; resumed, it runs nothing again and stops where it did.
     */
    @Test
    void adaptiveRepetitionStopsWithAReasonAndResumesToTheSameAnswer() throws Exception {
        Path dir = work.resolve("adaptive");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "tune", "hello", "--gc", "parallel,serial", "--clients", "2",
                "--warmup", "0s", "--duration", "2s", "--heap", "64m", "--repeat", "auto:3", "--out", dir.toString(),
                "--quiet")) {
            assertEquals(0, p.await(Duration.ofSeconds(180)), p.err());
        }
        JsonNode r = JSON.readTree(dir.resolve("experiment.json").toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        String stop = r.get("repeatStop").asText();
        assertTrue(stop.startsWith("after 3 rounds") || stop.equals("reached the maximum of 3 rounds without a clear answer"), stop);
        assertEquals(3, r.get("repeat").asInt());
        assertEquals(6, r.get("runsDone").asInt());
        assertTrue(Files.readString(dir.resolve("experiment.yaml")).contains("repeat: auto:3"));
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "tune", "--resume", dir.toString(), "--quiet")) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            assertTrue(p.out().contains("resuming: 6 of 6 runs already finished"), p.out());
        }
        assertEquals(stop, JSON.readTree(dir.resolve("experiment.json").toFile()).get("repeatStop").asText());
    }
}

package perflab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.PerflabProcess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The results history end to end (docs/history.md): real runs of the hello SUT recording themselves, perflab tune's
 * runs with their experiment, import, list and show, and the CI gate's verdicts and exit codes, a regression planted
 * by a history whose earlier runs of the same configuration were a hundred times as fast.
 */
class HistoryIT {
    private static final String HELLO = PerflabProcess.testWorkload("hello");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] RUN = {"run", "hello", "--clients", "2", "--warmup", "1s", "--duration", "2s",
            "--heap", "64m", "--gc", "serial", "--seed", "5"};

    @TempDir
    Path work;

    private PerflabProcess perflab(String... args) throws Exception {
        return PerflabProcess.startWith(work, HELLO, args);
    }

    private static String[] with(String[] base, String... more) {
        List<String> all = new ArrayList<>(List.of(base));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    private static long count(Path history, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + history); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void runsRecordThemselvesAndTheGateJudgesThem() throws Exception {
        // the default place, under the user's data directory (the test's own, as PerflabProcess gives it)
        Path history = work.resolve("data/perflab/history.sqlite");
        Path first = work.resolve("first");
        try (PerflabProcess p = perflab(with(RUN, "--out", first.toString(), "--label", "v1", "--slo", "errors=0, p99<60s"))) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
            assertTrue(p.out().contains("verdict: pass (exit 0)"), p.out());
            assertFalse(p.err().contains("history"), p.err());
            assertTrue(p.out().contains("perflab: history: run 1 recorded in " + history), p.out());
        }
        JsonNode summary = JSON.readTree(first.resolve("summary.json").toFile());
        assertEquals("pass", summary.get("gate").get("verdict").asText(), summary.get("gate").toString());
        assertEquals(2, summary.get("gate").get("objectives").size());
        assertEquals("v1", JSON.readTree(first.resolve("run.json").toFile()).get("config").get("recording").get("label").asText());
        assertEquals(1, count(history, "SELECT count(*) FROM runs WHERE label = 'v1' AND status = 'complete'"));
        assertTrue(count(history, "SELECT count(*) FROM figures") > 10);

        Path missed = work.resolve("missed");
        Path junit = work.resolve("gate.xml");
        try (PerflabProcess p = perflab(with(RUN, "--out", missed.toString(), "--slo", "throughput>1e12/s",
                "--junit", junit.toString()))) {
            assertEquals(3, p.await(Duration.ofSeconds(120)), p.out() + p.err());
            assertTrue(p.out().contains("verdict: slo-missed (exit 3)"), p.out());
        }
        String xml = Files.readString(junit);
        assertTrue(xml.contains("tests=\"1\" failures=\"1\""), xml);
        assertTrue(xml.contains("name=\"throughput&gt;1e12/s\""), xml);
        assertEquals(2, count(history, "SELECT count(*) FROM runs"), "a gate that fails still records its run");

        try (PerflabProcess p = perflab("history", "list", "--workload", "hello")) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            List<String> rows = p.out().lines().filter(l -> l.contains("hello jetty")).toList();
            assertEquals(2, rows.size(), p.out());
            assertTrue(rows.get(0).contains(" v1 "), p.out());
        }
        try (PerflabProcess p = perflab("history", "show", "throughput", "--run", "1")) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            assertTrue(p.out().contains("throughput of configuration"), p.out());
            assertTrue(p.out().contains("2 runs"), p.out());
            assertTrue(p.out().contains("no change point"), p.out());
        }
        try (PerflabProcess p = perflab("history", "export", "--format", "csv")) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            List<String> lines = p.out().lines().toList();
            assertTrue(lines.get(0).startsWith("run,started_at,label,status,"), p.out());
            assertEquals(2, lines.stream().filter(l -> l.contains(",,throughput,")).count(), p.out());
        }
        try (PerflabProcess p = perflab("history", "export", "--format", "json", "--label", "v1")) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            JsonNode runs = JSON.readTree(p.out());
            assertEquals(1, runs.size(), p.out());
            assertTrue(runs.get(0).get("figures").get("run").get("throughput").asDouble() > 0, p.out());
        }
        Path page = work.resolve("history.html");
        try (PerflabProcess p = perflab("history", "report", "--workload", "hello", "-o", page.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            assertEquals(page.toString(), p.out().trim());
            String html = Files.readString(page);
            assertTrue(html.contains("<canvas id=\"chart-c1-throughput\">"), "a trend of throughput");
            assertTrue(html.contains("its report"), "links to the runs' own reports");
        }
    }

    @Test
    void aPlantedRegressionFailsTheGateAndAnExperimentIsGatedByConfiguration() throws Exception {
        Path seed = work.resolve("seed");
        try (PerflabProcess p = perflab(with(RUN, "--out", seed.toString(), "--history", "off"))) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
        }
        assertFalse(Files.exists(work.resolve("data/perflab/history.sqlite")), "--history off records nothing");
        // two histories of the same configuration: earlier runs a hundred times as fast, and a hundred times as slow.
        // Not 3x: a 2 s run of the hello SUT, its JIT still compiling, measures anywhere from 4,000 to 24,000 req/s,
        // so a run can match a history 3x its seed's by chance (CI did: 13,790 against 13,800 req/s)
        Path faster = earlierRuns(seed, "faster", 100.0);
        Path slower = earlierRuns(seed, "slower", 1 / 100.0);
        Path fastHistory = work.resolve("fast.sqlite");
        Path slowHistory = work.resolve("slow.sqlite");
        for (Path[] h : new Path[][]{{faster, fastHistory}, {slower, slowHistory}}) {
            try (PerflabProcess p = perflab("history", "import", h[0].toString(), "--history", h[1].toString(), "--label", "old")) {
                assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
                assertTrue(p.out().contains("5 runs recorded, 0 recorded before, 0 unreadable"), p.out());
            }
        }
        Path junit = work.resolve("regression.xml");
        try (PerflabProcess p = perflab(with(RUN, "--out", work.resolve("regressed").toString(), "--history",
                fastHistory.toString(), "--label", "new", "--no-regression", "--junit", junit.toString()))) {
            assertEquals(4, p.await(Duration.ofSeconds(120)), p.out() + p.err());
            assertTrue(p.out().contains("verdict: regression (exit 4)"), p.out());
            assertTrue(p.out().lines().anyMatch(l -> l.contains("regression check throughput") && l.contains("REGRESSION")),
                    p.out());
        }
        String xml = Files.readString(junit);
        assertTrue(xml.contains("classname=\"perflab.regression\" name=\"throughput\""), xml);
        assertTrue(xml.contains("<failure message=\"throughput"), xml);
        // an experiment is gated configuration by configuration: 2 clients is the configuration of the slower history,
        // which its run improves on; 1 client has no past to be compared with, which is said and passes
        Path experiment = work.resolve("experiment");
        Path tuneJunit = work.resolve("tune.xml");
        try (PerflabProcess p = perflab("tune", "hello", "--clients", "1,2", "--warmup", "1s", "--duration", "2s",
                "--heap", "64m", "--gc", "serial", "--seed", "5", "--repeat", "1", "--quiet", "--out", experiment.toString(),
                "--history", slowHistory.toString(), "--label", "exp", "--no-regression", "--slo", "errors=0",
                "--junit", tuneJunit.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(180)), p.out() + p.err());
            assertTrue(p.out().contains("verdict: pass (exit 0)"), p.out());
            assertTrue(p.out().lines().anyMatch(l -> l.contains("regression check throughput")
                    && l.contains("against 5 earlier runs")), p.out());
            assertTrue(p.out().contains("throughput: 0 earlier runs of this configuration"), p.out());
        }
        JsonNode gate = JSON.readTree(experiment.resolve("experiment.json").toFile()).get("gate");
        assertEquals("pass", gate.get("verdict").asText(), gate.toString());
        assertEquals(2, gate.get("configurations").size(), gate.toString());
        String tuneXml = Files.readString(tuneJunit);
        assertTrue(tuneXml.contains("tests=\"8\" failures=\"0\""), tuneXml);
        assertEquals(2, count(slowHistory, "SELECT count(*) FROM runs WHERE label = 'exp' AND experiment = '"
                + experiment.toAbsolutePath().normalize() + "'"));
        assertEquals(2, count(slowHistory, "SELECT count(DISTINCT config_key) FROM runs"),
                "tune's 2 clients is the configuration run's 2 clients recorded");
        // import finds the same runs and records nothing twice
        try (PerflabProcess p = perflab("history", "import", experiment.toString(), "--history", slowHistory.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            assertTrue(p.out().contains("0 runs recorded, 2 recorded before"), p.out());
        }
        // the series shows it at the new run: too new for a change point (3 runs each side), flagged by the check
        try (PerflabProcess p = perflab("history", "show", "throughput", "--run", "6", "--history", fastHistory.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            assertTrue(p.out().contains("6 runs"), p.out());
            assertTrue(p.out().contains("no change point"), p.out());
            assertTrue(p.out().lines().anyMatch(l -> l.startsWith("newest run 6 against the runs before it: throughput")
                    && l.contains("REGRESSION from run 6")), p.out());
        }
    }

    /**
     * Five run directories of the configuration {@code seed} ran, started before it, with throughput times
     * {@code factor} and latency and CPU divided by it (2 % apart, as repeats are).
     */
    private Path earlierRuns(Path seed, String name, double factor) throws Exception {
        Path dir = work.resolve(name);
        Instant start = Instant.parse(JSON.readTree(seed.resolve("run.json").toFile()).get("startedAt").asText());
        for (int i = 0; i < 5; i++) {
            Path run = Files.createDirectories(dir.resolve("run-" + i));
            ObjectNode manifest = (ObjectNode) JSON.readTree(seed.resolve("run.json").toFile());
            manifest.put("startedAt", start.minus(Duration.ofHours(5 - i)).toString());
            ObjectNode summary = (ObjectNode) JSON.readTree(seed.resolve("summary.json").toFile());
            double noise = 1 + 0.02 * (i - 2) / 2;
            summary.put("throughput", summary.get("throughput").asDouble() * factor * noise);
            ((ObjectNode) summary.get("latencyMs")).put("p99", summary.get("latencyMs").get("p99").asDouble() / factor * noise);
            ((ObjectNode) summary.get("sut")).put("cpuMicrosPerRequest",
                    summary.get("sut").get("cpuMicrosPerRequest").asDouble() / factor * noise);
            JSON.writeValue(run.resolve("run.json").toFile(), manifest);
            JSON.writeValue(run.resolve("summary.json").toFile(), summary);
        }
        return dir;
    }

    /**
     * A real regression caught by the gate: the same drive (same target, same load: one configuration) against a hello
     * server that is then started again interpreted only ({@code -Xint}), as a commit that made the server slower
     * would be. The drives offer 4,000 requests a second (the open model): the fast server (C1 only, warm within a
     * second) answers them within a few milliseconds, the slow one queues them. The slow server's first drive is
     * judged with {@code --no-regression} against the fast server's four: its p99 is the regression, from that run.
     * (Four closed-model drives of a few seconds, each from a cold driver JVM, varied by 2x here: too few and too
     * noisy for a change point at p < 0.0001, which EDivisiveTest measures on longer series.)
     */
    @Test
    void aSlowerServerBehindTheSameDriveFailsTheGateAtTheRightRun() throws Exception {
        int port = perflab.core.process.LocalSockets.freePort(); // the same port for both servers: one history series
        Path history = work.resolve("drives.sqlite");
        Path junit = work.resolve("drives.xml");
        for (String speed : new String[]{"fast", "slow"}) {
            Path serveDir = Files.createDirectories(work.resolve("serve-" + speed));
            try (PerflabProcess server = PerflabProcess.startWith(serveDir, HELLO, "serve", "hello", "--port",
                    Integer.toString(port), "--jvm", speed.equals("fast") ? "-XX:TieredStopAtLevel=1" : "-Xint")) {
                String url = server.awaitLine(java.util.regex.Pattern.compile("at (http://127\\.0\\.0\\.1:\\d+/\\S+)"));
                for (int i = speed.equals("fast") ? -1 : 0; i < (speed.equals("fast") ? 4 : 1); i++) {
                    List<String> args = new ArrayList<>(List.of("drive", "hello", "--target", url, "--rate", "4000",
                            "--clients", "8", "--warmup", i < 0 ? "2s" : "1s", "--duration", "2s", "--seed", "3", "--quiet",
                            "--history", i < 0 ? "off" : history.toString(), "--label", speed + "-" + i));
                    if (speed.equals("slow")) {
                        args.addAll(List.of("--no-regression", "--junit", junit.toString()));
                    }
                    // the first drive warms the server and is not recorded
                    try (PerflabProcess drive = perflab(args.toArray(String[]::new))) {
                        int status = drive.await(Duration.ofSeconds(90));
                        if (speed.equals("fast")) {
                            assertEquals(0, status, drive.err());
                        } else {
                            assertEquals(4, status, drive.out() + drive.err());
                            assertTrue(drive.out().lines().anyMatch(l -> l.startsWith("  regression check p99 ")
                                    && l.endsWith("REGRESSION from run 5")), drive.out());
                        }
                    }
                }
                server.signal("INT");
                server.await(Duration.ofSeconds(60)); // it stops its SUT first: the port is free for the next
            }
        }
        assertEquals(1, count(history, "SELECT count(DISTINCT config_key) FROM runs"), "five drives of one configuration");
        assertTrue(Files.readString(junit).contains("<failure message=\"p99 "), Files.readString(junit));
    }

    @Test
    void badInputIsRefusedInOneLine() throws Exception {
        PerflabProcess.assertRefused(work, HELLO, "unknown figure 'latency'", "throughput", "run", "hello", "--slo", "latency<5ms");
        PerflabProcess.assertRefused(work, HELLO, "p99 is a time", "ms", "run", "hello", "--slo", "p99<5parsecs");
        PerflabProcess.assertRefused(work, HELLO, "is not FIGURE OP NUMBER", "errors=0", "run", "hello", "--slo", "p99 about 5");
        PerflabProcess.assertRefused(work, HELLO, "--no-regression compares", "--history", "run", "hello",
                "--no-regression", "--history", "off");
        PerflabProcess.assertRefused(work, HELLO, "--junit writes a gate's verdict", "--slo", "run", "hello", "--junit", "x.xml");
        PerflabProcess.assertRefused(work, HELLO, "a capacity search has none to judge", "--rate", "tune", "hello",
                "--search", "100", "--slo", "errors=0");
        PerflabProcess.assertRefused(work, HELLO, "unknown figure 'p98'", "p99", "tune", "hello", "--gc", "g1,serial",
                "--slo", "p98<1ms");
        PerflabProcess.assertRefused(work, HELLO, "--label: give one line", "characters", "run", "hello", "--label", " ");
        PerflabProcess.assertRefused(work, HELLO, "unknown figure 'nope'", "throughput", "history", "show", "nope", "--run", "1",
                "--history", work.resolve("none.sqlite").toString());
        PerflabProcess.assertRefused(work, HELLO, "holds no run", "run.json", "history", "import", work.toString());
        PerflabProcess.assertRefused(work, HELLO, "--since yesterday", "2026-11-29", "history", "list", "--since", "yesterday",
                "--history", work.resolve("none.sqlite").toString());
    }
}

package perflab.cli;

import perflab.testsupport.PerflabProcess;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perflab report and perflab compare on a real run's directory; every run writes its report.html itself. */
class ReportCommandIT {
    private static final String HELLO = PerflabProcess.testWorkload("hello");

    @TempDir
    static Path work;
    static Path run;

    @BeforeAll
    static void aShortRun() throws Exception {
        run = work.resolve("run");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--duration", "2s", "--warmup", "1s",
                "--clients", "4", "--out", run.toString())) {
            assertEquals(0, p.await(Duration.ofMinutes(2)), p.err());
            assertTrue(p.out().contains("perflab: report " + run.resolve("report.html")), p.out());
        }
    }

    @Test
    void everyRunWritesItsReport() throws Exception {
        String html = Files.readString(run.resolve("report.html"));
        assertTrue(html.contains("perflab run: hello / jetty / echo"));
        assertTrue(html.contains("id=\"chart-throughput\"") && html.contains("id=\"chart-latency-spectrum\""));
    }

    @Test
    void reportRewritesThePageAndPrintsItsPath() throws Exception {
        Files.delete(run.resolve("report.html"));
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "report", run.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            assertEquals(run.resolve("report.html").toString(), p.out().strip());
        }
        assertTrue(Files.size(run.resolve("report.html")) > 100_000, "the chart library is inlined");
    }

    @Test
    void compareTwoRunsPrintsTheTableAndWritesThePage() throws Exception {
        Path page = work.resolve("compare.html");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "compare", run.toString(), run.toString(), "--html", page.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            String out = p.out();
            for (String figure : List.of("throughput (req/s)", "latency p50 (ms)", "latency p99 (ms)", "errors",
                    "SUT CPU per request (µs)", "GC overhead (%)", "GC total pause (ms)")) {
                assertTrue(out.contains(figure), figure + " in " + out);
            }
            assertTrue(out.contains("+0.0%"), out);
            assertTrue(out.contains("not judged: one run each"), out);
            assertFalse(out.contains("settings that differ"), "a run compared with itself differs in nothing");
        }
        assertTrue(Files.readString(page).contains("perflab compare"));
    }

    @Test
    void badInputIsOneLineAndExitTwo() throws Exception {
        Path empty = Files.createDirectories(work.resolve("empty"));
        Path experiment = Files.createDirectories(work.resolve("experiment"));
        Files.writeString(experiment.resolve("experiment.json"), "{}");
        List<List<String>> cases = List.of(
                List.of("report", work.resolve("nosuch").toString()),
                List.of("report", empty.toString()),
                List.of("compare", run.toString(), empty.toString()),
                List.of("compare", run.toString(), experiment.toString()),
                List.of("compare", run.toString()));
        List<String> expected = List.of("no such directory: " + work.resolve("nosuch"),
                empty + " is not a perflab run directory", empty + " is not a perflab run directory",
                "is an experiment and", "Missing required parameter");
        for (int i = 0; i < cases.size(); i++) {
            try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, cases.get(i).toArray(String[]::new))) {
                assertEquals(2, p.await(Duration.ofSeconds(60)), p.err());
                List<String> lines = p.err().lines().filter(l -> !l.isBlank()).toList();
                assertEquals(1, lines.size(), p.err());
                assertTrue(lines.get(0).startsWith("perflab: ") && lines.get(0).contains(expected.get(i)), p.err());
            }
        }
    }
}

package perflab.report;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The reports in a real browser (issue 5, item 6): headless Chromium opens each page offline, its scripts run
 * without error, and every chart is drawn. The pages and their screenshots stay in target/browser-test/.
 * Skipped when Chromium is not installed (CI installs it: .ci/run).
 */
class HtmlBrowserTest {
    private static Path out;

    @BeforeAll
    static void output() throws Exception {
        out = Path.of(System.getProperty("perflab.test.output", "target/browser-test"));
        Files.createDirectories(out);
    }

    @Test
    void runReportDrawsEveryChartWithoutScriptErrors() throws Exception {
        assumeTrue(HtmlBrowser.executable() != null, "chromium is not installed");
        Path run = ReportFixtures.copyRun(out.resolve("run"));
        HtmlPage page = RunReport.page(ReportRun.load(run));
        Path html = page.write(run.resolve(RunReport.FILE));
        assertDrawn(html, page.chartCount(), "run-report.png");
    }

    @Test
    void experimentReportsDrawEveryChart() throws Exception {
        assumeTrue(HtmlBrowser.executable() != null, "chromium is not installed");
        Path matrix = ReportFixtures.copyExperiment(out.resolve("experiment-matrix"));
        HtmlPage page = ExperimentReport.page(matrix, ExperimentReport.read(matrix));
        assertDrawn(page.write(matrix.resolve(RunReport.FILE)), page.chartCount(), "experiment-matrix.png");

        Path steps = ExperimentReportTest.steps(ReportFixtures.copyExperiment(out.resolve("experiment-steps")));
        page = ExperimentReport.page(steps, ExperimentReport.read(steps));
        assertDrawn(page.write(steps.resolve(RunReport.FILE)), page.chartCount(), "experiment-steps.png");

        Path sweep = ExperimentReportTest.rateSweep(ReportFixtures.copyExperiment(out.resolve("experiment-rate-sweep")));
        page = ExperimentReport.page(sweep, ExperimentReport.read(sweep));
        assertDrawn(page.write(sweep.resolve(RunReport.FILE)), page.chartCount(), "experiment-rate-sweep.png");
    }

    @Test
    void comparePageDrawsBothRuns() throws Exception {
        assumeTrue(HtmlBrowser.executable() != null, "chromium is not installed");
        ReportRun a = ReportRun.load(ReportFixtures.copyRun(out.resolve("compare/a")));
        ReportRun b = ReportRun.load(ReportFixtures.copyRun(out.resolve("compare/b")));
        HtmlPage page = CompareReport.ofRuns(a, b).page(java.util.List.of(new RunReportCharts.Labeled("A", a),
                new RunReportCharts.Labeled("B", b)));
        assertDrawn(page.write(out.resolve("compare/compare.html")), page.chartCount(), "compare.png");
    }

    @Test
    void historyPageDrawsEveryTrendWithItsChange() throws Exception {
        assumeTrue(HtmlBrowser.executable() != null, "chromium is not installed");
        Path dir = out.resolve("history");
        Path history = dir.resolve("history.sqlite");
        java.nio.file.Files.deleteIfExists(history);
        // twelve runs of one configuration, the last six 20 % slower, the last three an experiment's repeats (one point)
        com.fasterxml.jackson.databind.ObjectMapper json = perflab.core.result.Json.MAPPER;
        try (perflab.history.store.HistoryStore store = perflab.history.store.HistoryStore.open(history,
                java.time.Duration.ofSeconds(5))) {
            for (int i = 0; i < 12; i++) {
                Path run = ReportFixtures.copyRun(dir.resolve("run-" + i));
                var manifest = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(run.resolve("run.json").toFile());
                manifest.put("startedAt", java.time.Instant.parse("2026-11-01T00:00:00Z").plusSeconds(3600L * i).toString());
                if (i >= 9) {
                    ((com.fasterxml.jackson.databind.node.ObjectNode) manifest.get("config")).putObject("recording")
                            .put("experiment", dir.resolve("experiment").toString()).put("label", "v2");
                }
                json.writeValue(run.resolve("run.json").toFile(), manifest);
                var summary = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(run.resolve("summary.json").toFile());
                double level = i >= 6 ? 0.8 : 1.0;
                summary.put("throughput", 10_000 * level * (1 + 0.01 * ((i * 7) % 5 - 2)));
                json.writeValue(run.resolve("summary.json").toFile(), summary);
                store.record(perflab.history.RunReading.read(run));
            }
            RunReport.write(dir.resolve("run-11"));
            Path html = dir.resolve("history.html");
            int charts = HistoryReport.write(store, perflab.history.store.RunFilter.ALL, html);
            assertTrue(charts >= 2, "throughput and p99 at least: " + charts);
            String page = Files.readString(html);
            assertTrue(page.contains("worse"), "the drop is a change for the worse");
            assertTrue(page.contains("its report"), "a link to a run's own report");
            assertDrawn(html, charts, "history.png");
        }
    }

    /** Opens the page: no script error, {@code charts} charts drawn; keeps a screenshot named {@code png}. */
    static void assertDrawn(Path html, int charts, String png) throws Exception {
        String dom = HtmlBrowser.dumpDom(html);
        Files.writeString(out.resolve(png.replace(".png", ".dom.html")), dom);
        assertEquals("", HtmlBrowser.bodyAttribute(dom, "data-errors"), "script errors in " + html);
        assertEquals(Integer.toString(charts), HtmlBrowser.bodyAttribute(dom, "data-rendered"), "charts drawn in " + html);
        java.util.regex.Matcher points = java.util.regex.Pattern.compile("data-points=\"(\\d+)\"").matcher(dom);
        int withPoints = 0;
        while (points.find()) {
            assertTrue(Integer.parseInt(points.group(1)) > 0, "a chart with no points in " + html);
            withPoints++;
        }
        assertEquals(charts, withPoints, "charts that drew their points in " + html);
        HtmlBrowser.screenshot(html, out.resolve(png), 1400, 2400);
    }
}

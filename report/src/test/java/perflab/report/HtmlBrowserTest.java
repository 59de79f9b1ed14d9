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

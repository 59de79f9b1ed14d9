package perflab.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.result.ExperimentResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompareReportTest {
    @TempDir
    Path tmp;

    @Test
    void twoRunsGiveDeltasAndSayTheirSignificanceCannotBeJudged() throws Exception {
        Path a = ReportFixtures.copyRun(tmp.resolve("a"));
        Path b = ReportFixtures.copyRun(tmp.resolve("b"));
        Path summary = b.resolve("summary.json");
        Files.writeString(summary, Files.readString(summary).replace("\"throughput\" : 5509.24", "\"throughput\" : 6060.164"));
        Path runJson = b.resolve("run.json");
        Files.writeString(runJson, Files.readString(runJson).replace("\"jvmFlags\" : [ ],", "\"jvmFlags\" : [ ], \"heap\" : \"1g\","));
        CompareReport c = CompareReport.ofRuns(ReportRun.load(a), ReportRun.load(b));
        CompareReport.Figure throughput = c.figures().get(0);
        assertEquals("throughput", throughput.name());
        assertEquals(10.0, throughput.deltaPercent(), 1e-6);
        assertEquals(CompareReport.ONE_RUN_EACH, throughput.significance());
        assertTrue(c.figures().stream().anyMatch(f -> f.name().equals("SUT CPU per request")));
        assertTrue(c.figures().stream().anyMatch(f -> f.name().equals("GC overhead")));
        assertEquals(List.of("sut.heap: — → 1g"), c.differences());
        String text = c.text();
        assertTrue(text.contains("+10.0%"), text);
        assertTrue(text.contains("one run each"), text);
    }

    @Test
    void experimentsAreComparedPerConfigurationWithTheGivenTest() throws Exception {
        ExperimentResult e = ExperimentReport.read(ReportFixtures.copyExperiment(tmp.resolve("e")));
        double[][] seen = new double[2][];
        CompareReport c = CompareReport.ofExperiments("A", e, "B", e, (x, y) -> {
            seen[0] = x;
            seen[1] = y;
            return 0.5;
        });
        CompareReport.Figure first = c.figures().get(0);
        assertEquals("heap=128m gc=parallel", first.group());
        assertEquals(0.0, first.deltaPercent(), 1e-9);
        assertEquals("p = 0.500, not significant", first.significance());
        assertEquals(2, seen[0].length, "the test gets the per-run values, one per run");
        assertEquals(4 * 7, c.figures().size(), "4 configurations matched by name, 7 figures each");
    }

    @Test
    void deltaOfZeroAndMissingValues() {
        assertEquals(0.0, new CompareReport.Figure(null, "errors", "", 0, 0, false, "").deltaPercent());
        assertTrue(Double.isNaN(new CompareReport.Figure(null, "errors", "", 0, 3, false, "").deltaPercent()));
        assertTrue(Double.isNaN(new CompareReport.Figure(null, "x", "", Double.NaN, 3, false, "").deltaPercent()));
    }

    @Test
    void aRunWithoutSummaryCannotBeCompared() throws Exception {
        Path a = ReportFixtures.copyRun(tmp.resolve("a"));
        Path b = ReportFixtures.copyRun(tmp.resolve("b"));
        Files.delete(b.resolve("summary.json"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CompareReport.ofRuns(ReportRun.load(a), ReportRun.load(b)));
        assertTrue(e.getMessage().contains("has no summary.json"), e.getMessage());
    }
}

package perflab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.result.Json;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExperimentReportTest {
    @TempDir
    Path tmp;

    @Test
    void matrixPageHasTheTableTheChartsPerConfigurationAndEveryRun() throws Exception {
        Path dir = ReportFixtures.copyExperiment(tmp.resolve("exp"));
        assertTrue(ExperimentReport.isExperiment(dir));
        HtmlPage page = ExperimentReport.page(dir, ExperimentReport.read(dir));
        String html = page.render();
        for (String chart : new String[]{"throughput-per-config", "p99-per-config", "gc-per-config", "throughput-runs", "gc-pauses"}) {
            assertTrue(html.contains("id=\"chart-" + chart + "\""), chart);
        }
        assertFalse(html.contains("id=\"chart-cumulative-gain\""), "a matrix has no cumulative gain");
        assertTrue(html.contains("Best configuration: heap=128m gc=parallel"), "the best configuration and its rule");
        assertTrue(html.contains("4,968 ± 22,065"), "mean ± half the 95% interval");
        assertTrue(html.contains("p = 0.355, within noise"), "the gain's Welch p");
        assertEquals(dir.resolve("report.html"), ExperimentReport.write(dir));
    }

    @Test
    void stepsGetTheCumulativeGainChart() throws Exception {
        Path dir = steps(ReportFixtures.copyExperiment(tmp.resolve("exp")));
        String html = ExperimentReport.page(dir, ExperimentReport.read(dir)).render();
        assertTrue(html.contains("id=\"chart-cumulative-gain\""));
        assertTrue(html.contains("step gain"));
    }

    @Test
    void aRateSweepGetsItsLatencyVersusThroughputCurve() throws Exception {
        Path dir = rateSweep(ReportFixtures.copyExperiment(tmp.resolve("exp")));
        String html = ExperimentReport.page(dir, ExperimentReport.read(dir)).render();
        assertTrue(html.contains("id=\"chart-rate-sweep\""));
        assertTrue(html.contains("Knee at 2,000 req/s"), "the knee is named");
    }

    @Test
    void notAnExperimentGetsOneLine() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExperimentReport.write(empty));
        assertEquals(empty + " is not a perflab experiment directory (no experiment.json)", e.getMessage());
        Files.writeString(empty.resolve("experiment.json"), "[1, 2");
        e = assertThrows(IllegalArgumentException.class, () -> ExperimentReport.write(empty));
        assertTrue(e.getMessage().startsWith(empty.resolve("experiment.json") + " is not a perflab experiment"), e.getMessage());
    }

    /** The fixture made into a steps experiment: each configuration a step over the one before. */
    static Path steps(Path dir) throws Exception {
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(dir.resolve("experiment.json").toFile());
        root.put("kind", "steps");
        ArrayNode configs = (ArrayNode) root.get("configurations");
        for (int i = 1; i < configs.size(); i++) {
            ObjectNode c = (ObjectNode) configs.get(i);
            c.set("stepGain", c.get("gain").deepCopy());
            c.putObject("added").put("step", Integer.toString(i));
        }
        Files.writeString(dir.resolve("experiment.json"), Json.MAPPER.writeValueAsString(root));
        return dir;
    }

    /** The fixture made into a rate sweep at 1000, 2000, 3000, 4000 req/s with a knee at 2000. */
    static Path rateSweep(Path dir) throws Exception {
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(dir.resolve("experiment.json").toFile());
        root.put("kind", "rate-sweep");
        ObjectNode sweep = root.putObject("rateSweep");
        ArrayNode points = sweep.putArray("points");
        double[] p99 = {2, 3, 40, 900};
        double[] tput = {1000, 1999, 2950, 3100};
        for (int i = 0; i < 4; i++) {
            points.addObject().put("label", "rate-" + (i + 1) * 1000).put("rate", (i + 1) * 1000.0).put("throughput", tput[i])
                    .put("p99Ms", p99[i]).put("errors", 0).put("keptUp", i < 3).put("meetsGoal", i < 2);
        }
        sweep.put("kneeRate", 2000.0).put("maxRateMeetingGoal", 2000.0).put("throughputAtMaxRate", 1999.0).put("goal", "p99 <= 10 ms");
        Files.writeString(dir.resolve("experiment.json"), Json.MAPPER.writeValueAsString(root));
        return dir;
    }
}

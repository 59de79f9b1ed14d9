package perflab.report;

import org.junit.jupiter.api.Test;
import perflab.core.result.LatencySummary;
import perflab.core.result.RunSummary;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsoleSummaryTest {
    @Test
    void harnessBlockHasTheHarnessShapeAndMeaning() {
        // 100 clients for 28,800 s, 953,428,857 invocations: the seed's first 8-hour run
        RunSummary.Harness h = new RunSummary.Harness(331.05, 3.02, 953_428_857L, 2_880_000.0);
        LatencySummary l = new LatencySummary(953_428_857L, 3.0, 2.9, 3.5, 4.0, 6.0, 9.0, 40.0);
        RunSummary s = new RunSummary("soap-echo", "lean", "echoComplexTypeDoc", "closed", 100, null, true,
                "completed", 28_800, 953_428_857L, 953_428_857L, Map.of("total", 0L), 33_105.2, 331.05, l, l, l,
                new RunSummary.Steadiness(true, 0.01, 0.1, 28_800),
                new RunSummary.Driver(1, 1, false, null, 0, 100, null, 0, 0), null, null, null, null, h);
        String block = ConsoleSummary.harnessBlock(s);
        String[] lines = block.strip().split("\\R");
        assertEquals("=============Overall Test Result============", lines[0]);
        assertEquals("Overall Throughput: echoComplexTypeDoc 331.05 (invocations/sec)", lines[1]);
        assertEquals("Overall AVG. response time: 3.02 (ms)", lines[2]);
        assertEquals("9.53428857E8 (invocations), running 2880000.00 (sec)", lines[3]);
        assertEquals("============================================", lines[4]);
        assertTrue(lines[5].startsWith("Aggregate throughput: 33105.20"));
        assertTrue(ConsoleSummary.render(s).contains("errors               0"));
    }

    @Test
    void liveLine() {
        String line = LiveLine.format("measure", 12, 20, 1234.5, 1.25, 9.5, 3, 87.5, 2.5);
        assertTrue(line.contains("12/20s"), line);
        assertTrue(line.contains("1234.5 req/s"), line);
        assertTrue(line.contains("errors 3"), line);
        assertTrue(line.contains("sut cpu  87.5%"), line);
        assertTrue(line.contains("gc   2.5%"), line);
        assertTrue(!LiveLine.format("measure", 1, 2, 1, 1, 1, 0, Double.NaN, Double.NaN).contains("gc"));
    }
}

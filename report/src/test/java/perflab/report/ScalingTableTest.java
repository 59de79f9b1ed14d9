package perflab.report;

import org.junit.jupiter.api.Test;
import perflab.core.result.LatencySummary;
import perflab.core.result.RunSummary;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScalingTableTest {
    private static RunSummary summary(int clients, double throughput, boolean complete) {
        LatencySummary l = new LatencySummary(1000, 3.02, 2.5, 4, 5, 9.5, 20, 40);
        return new RunSummary("soap-echo", "lean", "echoComplexTypeDoc", "closed", clients, null, complete,
                complete ? "completed" : "interrupted", 60, 1000, 1000, Map.of("total", 0L), throughput,
                throughput / clients, l, l, l, new RunSummary.Steadiness(true, 0, 0, 0, 60),
                new RunSummary.Driver(1, 1, false, null, 0, clients, null, 0, 0, 0), null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    @Test
    void rowsAsTheHarnessPrintsThem() {
        List<ScalingTable.Row> rows = List.of(new ScalingTable.Row("1", summary(1, 1486.87, true)),
                new ScalingTable.Row("100", summary(100, 34760, false)), new ScalingTable.Row("128", null));
        String csv = ScalingTable.csv("clients", rows);
        String[] lines = csv.split("\n");
        assertEquals("1,1486.87,1486.87,3.020,2.500,9.500,0,true,1", lines[1]);
        assertEquals("100,347.60,34760.00,3.020,2.500,9.500,0,false,100", lines[2]);
        assertEquals("128,,,,,,,false,", lines[3]);
        String md = ScalingTable.markdown("clients", rows);
        assertTrue(md.contains("| 100 | 347.60 | 34760.00 | 3.020 | 9.500 | 0 (incomplete: interrupted) |"), md);
        assertTrue(md.contains("| 128 | — | — | — | — | no result |"), md);
    }
}

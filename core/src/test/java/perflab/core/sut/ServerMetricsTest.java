package perflab.core.sut;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ServerMetricsTest {
    @Test
    void countsAndSummaryLine() {
        ServerMetrics metrics = new ServerMetrics();
        assertEquals("PERFLAB-METRICS requests=0 h2=0 faults=0 serviceNanos=0 meanServiceMicros=0.0", metrics.summaryLine());
        metrics.record(1_000, false, false);
        metrics.record(2_500, true, true);
        assertEquals(2, metrics.requests());
        assertEquals(1, metrics.http2Requests());
        assertEquals(1, metrics.faults());
        assertEquals("PERFLAB-METRICS requests=2 h2=1 faults=1 serviceNanos=3500 meanServiceMicros=1.8", metrics.summaryLine());
    }

    @Test
    void stopStopsTheServerThenPrintsTheLine() throws Exception {
        List<String> events = new ArrayList<>();
        ServerMetrics metrics = new ServerMetrics();
        metrics.record(1_000, false, false);
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            new StartedServer(4711, metrics, () -> {
                events.add("stopped");
                metrics.record(1_000, false, true); // a request in flight finishes while stopping
            }).stop();
            new StartedServer(4712, null, () -> events.add("stopped without metrics")).stop();
        } finally {
            System.setOut(stdout);
        }
        assertEquals(List.of("stopped", "stopped without metrics"), events);
        assertEquals(metrics.summaryLine() + System.lineSeparator(), captured.toString(StandardCharsets.UTF_8));
        assertEquals(2, metrics.requests());
    }
}

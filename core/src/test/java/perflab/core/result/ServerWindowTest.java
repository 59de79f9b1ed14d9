package perflab.core.result;

import org.junit.jupiter.api.Test;
import perflab.core.workload.ServerCounters;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ServerWindowTest {
    private static final ServerCounters DECL = new ServerCounters("/stats", Set.of("live", "pool.*"), Set.of("lat"));

    private static ServerWindow.Sample sample(long ms, String phase, Object... kv) {
        Map<String, Double> values = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            values.put((String) kv[i], ((Number) kv[i + 1]).doubleValue());
        }
        return new ServerWindow.Sample(ms, phase, values);
    }

    @Test
    void countersAreDifferencedFromTheWarmupsLastSampleToTheWindowsLast() {
        List<ServerWindow.Sample> samples = List.of(
                sample(1_000, "warmup", "ops", 5, "live", 100, "pool.size", 4),
                sample(2_000, "warmup", "ops", 10, "live", 3, "pool.size", 4),
                sample(3_000, "measure", "ops", 20, "live", 6, "pool.size", 8, "failures.timeout", 1),
                sample(4_500, "measure", "ops", 40, "live", 9, "pool.size", 8, "failures.timeout", 3),
                sample(5_000, "after", "ops", 99, "live", 0, "pool.size", 0));
        ServerWindow w = ServerWindow.of(DECL, "http://x/stats", samples, 1);
        assertEquals(3, w.samples());
        assertEquals(1, w.missed());
        assertEquals(2.5, w.seconds());
        assertEquals(new ServerWindow.Counter(30, 12), w.counters().get("ops"));
        // a counter the SUT had not made yet at the start had counted nothing
        assertEquals(new ServerWindow.Counter(3, 1.2), w.counters().get("failures.timeout"));
        // gauges over the window's own samples: the warm-up's last is its start, not one of its levels
        assertEquals(new ServerWindow.Gauge(7.5, 9, 9), w.gauges().get("live"));
        assertEquals(new ServerWindow.Gauge(8, 8, 8), w.gauges().get("pool.size"));
        assertEquals(Map.of("timeout", 3.0), w.deltas("failures."));
    }

    @Test
    void instancesAddUpAndOneKilledBeforeTheWindowAddsNothing() {
        List<ServerWindow.Sample> a = List.of(
                sample(2_000, "warmup", "ops", 10, "live", 3, "lat.le.100", 5),
                sample(3_000, "measure", "ops", 20, "live", 6, "lat.le.100", 9),
                sample(4_000, "measure", "ops", 30, "live", 8, "lat.le.100", 15));
        // the second instance's span is shorter (its last sample came earlier): its rate is over its own span
        List<ServerWindow.Sample> b = List.of(
                sample(2_100, "warmup", "ops", 0, "live", 1, "lat.le.1000", 0),
                sample(3_100, "measure", "ops", 5, "live", 2, "lat.le.1000", 10));
        List<ServerWindow.Sample> killed = List.of(sample(1_000, "warmup", "ops", 100));
        ServerWindow w = ServerWindow.ofInstances(DECL, "instances", List.of(a, b, killed), 0);
        assertEquals(5, w.samples());
        assertEquals(2.0, w.seconds());
        assertEquals(new ServerWindow.Counter(25, 15), w.counters().get("ops"));
        assertEquals(new ServerWindow.Gauge(9, 10, 10), w.gauges().get("live"));
        ServerWindow.Latency lat = w.latencies().get("lat");
        assertEquals(20, lat.count());
        assertEquals(0.1, lat.p50Ms());
        assertEquals(1.0, lat.p90Ms());
        // one instance gives what of() gives
        assertEquals(ServerWindow.of(DECL, "x", a, 0), ServerWindow.ofInstances(DECL, "x", List.of(a), 0));
        assertNull(ServerWindow.ofInstances(DECL, "x", List.of(killed), 0));
    }

    @Test
    void percentilesAreTheUpperBoundOfTheBucketThatHoldsTheRank() {
        Map<String, Double> from = Map.of("lat.le.100", 50.0, "lat.le.200", 7.0);
        // window: 90 values <= 100 µs, 9 in (100, 200], 1 in (1000, 2047]
        Map<String, Double> to = Map.of("lat.le.100", 140.0, "lat.le.200", 16.0, "lat.le.2047", 1.0, "other", 3.0);
        ServerWindow.Latency l = ServerWindow.latency(from, to, "lat");
        assertEquals(100, l.count());
        assertEquals(0.1, l.p50Ms());
        assertEquals(0.1, l.p90Ms()); // rank 90 is the last of the first bucket
        assertEquals(0.2, l.p95Ms());
        assertEquals(0.2, l.p99Ms());
        assertEquals(2.047, l.maxMs());
        ServerWindow.Latency none = ServerWindow.latency(to, to, "lat");
        assertEquals(0, none.count());
        assertNull(none.p99Ms());
    }

    @Test
    void histogramsMergeAndBucketsAreNotCounters() {
        ServerWindow w = ServerWindow.of(DECL, "u", List.of(
                sample(0, "measure", "lat.le.10", 1),
                sample(1_000, "measure", "lat.le.10", 3, "lat.le.20", 2)), 0);
        assertEquals(Set.of(), w.counters().keySet());
        assertEquals(4, w.latencies().get("lat").count());
        assertEquals(0.02, w.latencies().get("lat").p99Ms());
        assertEquals(4, ServerWindow.latency(Map.of(), Map.of("a.le.5", 2.0, "b.le.5", 2.0), "a", "b").count());
    }

    @Test
    void aWindowNeedsTwoSamples() {
        assertNull(ServerWindow.of(DECL, "u", List.of(sample(0, "warmup", "ops", 1)), 0));
        assertNull(ServerWindow.of(DECL, "u", List.of(sample(0, "measure", "ops", 1)), 0));
    }
}

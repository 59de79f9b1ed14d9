package perflab.experiment.run;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.result.RunSummary;
import perflab.core.load.LoadColumn;
import perflab.core.load.LoadPeriod;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FailoverPhasesTest {
    /** The window: 20 whole seconds from t0; the kill 8.125 s in. */
    private static final long T0 = 1_700_000_000_000L;
    private static final long KILL = T0 + 8_125;

    private static List<FailoverPhases.DriverSecond> seconds(int... errorsAt) {
        List<FailoverPhases.DriverSecond> all = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long errors = 0;
            for (int e : errorsAt) {
                errors += e == i ? 1 : 0;
            }
            all.add(new FailoverPhases.DriverSecond(T0 + i * 1000L, T0 + (i + 1) * 1000L, 10 - errors, errors));
        }
        return all;
    }

    /** A load source's columns as SIPp's: calls, failed calls and retransmissions (trouble), a response time. */
    private static final List<LoadColumn> COLUMNS = List.of(LoadColumn.perPeriod("callsPerSecond"),
            LoadColumn.sum("callsCreated"), LoadColumn.trouble("failedCalls"), LoadColumn.trouble("retransmissions"),
            LoadColumn.max("rtdnotifyMeanMs"));

    /** Periods ending 300 ms into each second (not aligned with the driver's), retransmissions where asked. */
    private static LoadSources.Periods sipp(int retransmissionsAt, int failedAt) {
        List<LoadPeriod> all = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long start = (T0 + i * 1000L + 300) * 1000;
            Map<String, Double> values = new java.util.LinkedHashMap<>();
            values.put("callsPerSecond", 2.0);
            values.put("callsCreated", 2.0);
            values.put("failedCalls", i == failedAt ? 1.0 : 0.0);
            values.put("retransmissions", i == retransmissionsAt ? 3.0 : 0.0);
            values.put("rtdnotifyMeanMs", i == retransmissionsAt ? 2000.0 : 5.0);
            all.add(new LoadPeriod(start, start + 1_000_000, values));
        }
        return new LoadSources.Periods(all, COLUMNS);
    }

    @Test
    void aKillNothingSawDisturbsOnlyTheSecondThatHeldIt() {
        FailoverPhases.Disturbance d = FailoverPhases.disturbance(KILL, T0, T0 + 20_000, seconds(), Map.of("notifier", sipp(-1, -1)), List.of());
        assertEquals(T0 + 8_000, d.startEpochMs());
        assertEquals(T0 + 9_000, d.endEpochMs());
    }

    @Test
    void theDisturbanceRunsToTheLastFailureOrRetransmissionAfterTheKill() {
        // a retransmission in SIPp's period ending at 11.3 s, a failed request in the driver's second 12-13 s, and
        // one failure before the kill, which is not the kill's
        FailoverPhases.Disturbance d = FailoverPhases.disturbance(KILL, T0, T0 + 20_000, seconds(3, 12),
                Map.of("notifier", sipp(10, -1)), List.of());
        assertEquals(T0 + 8_000, d.startEpochMs());
        assertEquals(T0 + 13_000, d.endEpochMs());
        assertEquals(5.0, d.seconds());
        // a SIPp call that failed at 17.3 s, later still
        assertEquals(T0 + 17_300, FailoverPhases.disturbance(KILL, T0, T0 + 20_000, seconds(), Map.of("phone", sipp(-1, 16)),
                List.of()).endEpochMs());
        // what ends after the window is not the window's
        assertEquals(T0 + 9_000, FailoverPhases.disturbance(KILL, T0, T0 + 20_000, seconds(), Map.of("phone", sipp(-1, 19)),
                List.of()).endEpochMs());
    }

    @Test
    void thePartsSplitTheWindowsCountsAndLatency(@TempDir Path dir) throws Exception {
        Path hlog = dir.resolve("latency.hlog");
        try (PrintStream out = new PrintStream(Files.newOutputStream(hlog), false, "UTF-8")) {
            HistogramLogWriter log = new HistogramLogWriter(out);
            log.outputLogFormatVersion();
            log.outputStartTime(T0 - 3_000);
            log.setBaseTime(T0 - 3_000);
            log.outputLegend();
            for (int i = -3; i < 20; i++) {
                Histogram h = new Histogram(3);
                // 1 ms before and after, 500 ms in the disturbance (8-11 s), and in the second after, 1.9 ms: less
                // than twice the p99 before the kill, so not slow enough to be the kill's
                h.recordValueWithCount(i >= 8 && i < 11 ? 500_000 : i == 11 ? 1_900 : 1_000, 10);
                h.setStartTimeStamp(T0 + i * 1000L);
                h.setEndTimeStamp(T0 + (i + 1) * 1000L);
                h.setTag(i < 0 ? "warmup" : "measure");
                log.outputIntervalHistogram(h);
            }
        }
        RunSummary.Failover f = FailoverPhases.cut(new RunSummary.Failover("sut-0", 8.125, KILL), T0, T0 + 20_000,
                seconds(10), hlog, Map.of("notifier", sipp(9, -1)));
        assertEquals(3.0, f.disturbedSeconds());
        RunSummary.FailoverPhase before = f.phases().get("before");
        RunSummary.FailoverPhase during = f.phases().get("during");
        RunSummary.FailoverPhase after = f.phases().get("after");
        assertEquals(List.of("before", "during", "after"), List.copyOf(f.phases().keySet()));
        assertEquals(0.0, before.fromSecond());
        assertEquals(8.0, before.toSecond());
        assertEquals(8.0, during.fromSecond());
        assertEquals(11.0, during.toSecond());
        assertEquals(20.0, after.toSecond());
        assertEquals(80, before.requests());
        assertEquals(30, during.requests());
        assertEquals(1, during.errors());
        assertEquals(90, after.requests());
        assertEquals(0, before.errors() + after.errors());
        // the warm-up's intervals are not the window's
        assertTrue(before.latencyP99Ms() < 1.1, before.toString());
        assertTrue(during.latencyP50Ms() > 499 && during.latencyP50Ms() < 501, during.toString());
        assertTrue(after.latencyMaxMs() > 1.8 && after.latencyMaxMs() < 2, after.toString());
        // SIPp's periods go where they end: 8.3, 9.3 and 10.3 s are in the disturbance, which ends at 11.0 s
        Map<String, Double> notifier = during.loads().get("notifier");
        assertEquals(6.0, notifier.get("callsCreated"));
        assertEquals(3.0, notifier.get("retransmissions"));
        assertEquals(2000.0, notifier.get("rtdnotifyMeanMs"), "a level's largest");
        assertEquals(5.0, after.loads().get("notifier").get("rtdnotifyMeanMs"));
        assertTrue(!notifier.containsKey("callsPerSecond"), "a rate is per period only: " + notifier);
        // seven periods ended by 8.0 s; nine after 11.0 s, the period 19.3-20.3 s not being wholly in the window
        assertEquals(2.0 * 7, before.loads().get("notifier").get("callsCreated"));
        assertEquals(2.0 * 9, after.loads().get("notifier").get("callsCreated"));
    }

    @Test
    void secondsFarSlowerThanBeforeTheKillAreTheDisturbanceToo() {
        List<org.HdrHistogram.AbstractHistogram> intervals = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Histogram h = new Histogram(3);
            // requests queued behind a stalled set-up: 2 s in seconds 13 and 14, with no failure anywhere
            h.recordValueWithCount(i == 13 || i == 14 ? 2_000_000 : 10_000, 9);
            h.setStartTimeStamp(T0 + i * 1000L);
            h.setEndTimeStamp(T0 + (i + 1) * 1000L);
            intervals.add(h);
        }
        assertEquals(T0 + 15_000, FailoverPhases.disturbance(KILL, T0, T0 + 20_000, seconds(), Map.of(), intervals)
                .endEpochMs());
    }

    @Test
    void noLatencyLogGivesCountsWithoutLatency(@TempDir Path dir) throws Exception {
        RunSummary.Failover f = FailoverPhases.cut(new RunSummary.Failover("sut-0", 8.125, KILL), T0, T0 + 20_000,
                seconds(), dir.resolve("absent.hlog"), Map.of());
        assertNull(f.phases().get("during").latencyP99Ms());
        assertEquals(10, f.phases().get("during").requests());
    }

    /**
     * --restart-instance-at: the kill's traces count until the restart, and the restart's disturbance and the calm after
     * it are parts of their own. Failures at 9 s (the kill's) and at 15 s (the restart's, at 14.5 s), SIPp
     * retransmissions in the period ending at 16.3 s: the kill disturbs 8-10 s, the restart 14-16.3 s.
     */
    @Test
    void aRestartGetsItsOwnDisturbanceAndCalmAfterIt(@TempDir Path dir) throws Exception {
        long restartMs = T0 + 14_500;
        RunSummary.Failover killed = new RunSummary.Failover("sut-0", 8.125, KILL)
                .withRestart(new RunSummary.Restart("sut-0-restart", 14.5, restartMs, 4.2, null));
        RunSummary.Failover f = FailoverPhases.cut(killed, T0, T0 + 20_000, seconds(9, 15), dir.resolve("absent.hlog"),
                Map.of("notifier", sipp(15, -1)));
        assertEquals(List.of("before", "during", "after", "duringRestart", "afterRestart"),
                List.copyOf(f.phases().keySet()));
        assertEquals(2.0, f.disturbedSeconds(), "the kill's, not stretched to the restart's failures");
        assertEquals(2.3, f.restart().disturbedSeconds(), 1e-9);
        assertEquals(4.2, f.restart().readySeconds());
        Map<String, RunSummary.FailoverPhase> p = f.phases();
        assertEquals(10.0, p.get("after").fromSecond());
        assertEquals(14.0, p.get("after").toSecond());
        assertEquals(14.0, p.get("duringRestart").fromSecond());
        assertEquals(16.3, p.get("duringRestart").toSecond(), 1e-9);
        assertEquals(20.0, p.get("afterRestart").toSecond());
        assertEquals(1, p.get("during").errors());
        assertEquals(1, p.get("duringRestart").errors());
        assertEquals(3.0, p.get("duringRestart").loads().get("notifier").get("retransmissions"));
        long requests = p.values().stream().mapToLong(RunSummary.FailoverPhase::requests).sum();
        assertEquals(200, requests, "the parts cover the window");
        assertEquals(0, p.get("after").errors() + p.get("afterRestart").errors() + p.get("before").errors());
    }

    @Test
    void aSpanBelongsToTheDisturbanceItOverlapsElseToTheCalmItLiesIn() {
        List<FailoverPhases.Disturbance> faults = List.of(FailoverPhases.disturbance(KILL, T0, T0 + 10_000, seconds(),
                Map.of(), List.of()), FailoverPhases.disturbance(T0 + 14_500, T0, T0 + 20_000, seconds(), Map.of(),
                List.of()));
        assertEquals("before", FailoverPhases.partOf(T0, T0 + 1_000, faults));
        assertEquals("during", FailoverPhases.partOf(T0 + 8_000, T0 + 9_000, faults));
        assertEquals("after", FailoverPhases.partOf(T0 + 11_000, T0 + 12_000, faults));
        assertEquals("duringRestart", FailoverPhases.partOf(T0 + 13_900, T0 + 14_100, faults));
        assertEquals("afterRestart", FailoverPhases.partOf(T0 + 18_000, T0 + 19_000, faults));
    }

    /** --restart-proxy-at: the window in three around the restart, as around a kill. */
    @Test
    void aProxyRestartCutsTheWindowInThree(@TempDir Path dir) {
        RunSummary.ProxyRestart r = FailoverPhases.cut(new RunSummary.ProxyRestart(List.of("sip-proxy-restart",
                "http-proxy-restart"), 8.125, KILL, 0.1, null, null), T0, T0 + 20_000, seconds(9),
                dir.resolve("absent.hlog"), Map.of("notifier", sipp(8, -1)));
        assertEquals(List.of("before", "during", "after"), List.copyOf(r.phases().keySet()));
        assertEquals(2.0, r.disturbedSeconds());
        assertEquals(1, r.phases().get("during").errors());
        assertEquals(3.0, r.phases().get("during").loads().get("notifier").get("retransmissions"));
        assertEquals(200, r.phases().values().stream().mapToLong(RunSummary.FailoverPhase::requests).sum());
    }
}

package perflab.report;

import org.junit.jupiter.api.Test;
import perflab.core.result.LatencySummary;
import perflab.core.result.RunSummary;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsoleSummaryTest {
    @Test
    void perClientBlockHasTheHarnessShapeAndMeaning() {
        // 100 clients for 28,800 s, 953,428,857 invocations: the seed's first 8-hour run
        RunSummary.PerClient h = new RunSummary.PerClient(331.05, 3.02, 953_428_857L, 2_880_000.0);
        LatencySummary l = new LatencySummary(953_428_857L, 3.0, 2.9, 3.5, 4.0, 6.0, 9.0, 40.0);
        RunSummary s = new RunSummary("soap-echo", "lean", "echoComplexTypeDoc", "closed", 100, null, true,
                "completed", 28_800, 953_428_857L, 953_428_857L, Map.of("total", 0L), 33_105.2, 331.05, l, l, l,
                new RunSummary.Steadiness(true, 0.01, 0.1, 0, 28_800),
                new RunSummary.Driver(1, 1, false, null, 0, 100, null, 0, 0, 0), null, null, null, null, h, null, null, null, null, null, null, null, null);
        String block = ConsoleSummary.perClientBlock(s);
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
    void summaryShowsTheSutMachineNetworkAndGc() {
        LatencySummary l = new LatencySummary(1000, 1.0, 0.9, 1.5, 2.0, 3.0, 4.0, 5.0);
        RunSummary.Sut sut = new RunSummary.Sut(42L, 9.41, 6.5, 2.91, 94.1, 47.04, 37.6, 26605.0, 246.5, 248.1, 48,
                false, null, 0.05, 0.5, 1);
        RunSummary.Network net = new RunSummary.Network("lo", true, 50072.8, 50072.8, 100_797_124.3, 100_797_124.3,
                3923.0);
        perflab.core.result.gc.GcAnalysis gc = new perflab.core.result.gc.GcAnalysis("g1", 33, 33, 0, 0, 0, 33, 52.4,
                52.4, 0, 0, 0.53, 4.69, 1.4, 4.69, 0.09, 7.0, 509.3, 21176.0, 9.9, "wall", 0.5, 0, List.of(), List.of());
        RunSummary s = new RunSummary("soap-echo", "lean", "echoComplexTypeDoc", "closed", 16, null, true,
                "completed", 10, 250_334, 250_334, Map.of("total", 0L), 25_032.5, 1564.5, l, l, l,
                new RunSummary.Steadiness(true, 0.01, 0.1, 0, 10),
                new RunSummary.Driver(5.7, 57, false, null, 0, 16, null, 1, 1, 0), sut,
                new RunSummary.Machine(98.5, 2), net, gc, new RunSummary.PerClient(1564.5, 0.6, 250_334, 160),
                Map.of("sut", sut, "calls", new RunSummary.Sut(44L, 0.1, 0.05, 0.05, 1.0, 0.5, 0.4, 400.0, 6.0, 6.0, 1, null, null, null, null, 1), "backend",
                        new RunSummary.Sut(43L, 3.2, 3.0, 0.2, 32.0, 16.0, 12.8, 78125.0, 120.0, 130.0, 30, null, null, 2.5, 25.0, 1)),
                null, null, Map.of("calls", new perflab.core.result.LoadFigures("sipp", "call", 0, 10_000_000, 10, 10, 200,
                        197, 3, Map.of("retransmissions", 5), "200 calls in 10.0 s (20.00/s), 197 ok, 3 failed, 5 "
                        + "retransmissions", null)), null, null, null, null);
        String text = ConsoleSummary.render(s);
        // a load source's row: its kind and name, the window as the kind tells it
        assertTrue(text.contains(String.format("  %-20s %s", "sipp calls", "200 calls in 10.0 s (20.00/s), 197 ok, 3 failed, "
                + "5 retransmissions")), text);
        assertTrue(text.contains("calls                pid 44: cpu 0.10 s (1.0% of one core), 500.0 µs/call; rss 6.0 MB, 1 threads"), text);
        assertFalse(text.contains("Overall Test Result"), "the per-client block is the workload's choice: " + text);
        assertTrue(ConsoleSummary.render(s, true).contains("Overall Test Result"));
        assertTrue(text.contains("94.1% of one core, 47.0% of the machine; user 6.50 s, sys 2.91 s"), text);
        assertTrue(text.contains("rss 246.5 MB (peak 248.1 MB), 48 threads"), text);
        assertTrue(text.contains("machine cpu          98.5% of 2 CPUs"), text);
        assertTrue(text.contains("lo: in 50073 pkt/s 100.80 MB/s"), text);
        assertTrue(text.contains("driver 3923 bytes/request"), text);
        assertTrue(text.contains("g1: 33 collections (young 33, mixed 0, full 0, concurrent 0), paused 52.4 ms = 0.53%"), text);
        assertTrue(text.contains("live set 7.0 MB, allocation 509.3 MB/s (21176 bytes/request)"), text);
        assertTrue(text.contains("sut jit              compiler threads 0.05 s (0.5% of one core)\n"), text);
        assertTrue(text.contains("backend jit          compiler threads 2.50 s (25.0% of one core) — STILL COMPILING"), text);
        assertTrue(text.contains("backend              pid 43: cpu 3.20 s (32.0% of one core), 12.8 µs/request; rss 120.0 MB, 30 threads"), text);
    }

    /** A database sampled with its backends: its own line (memory as PSS), then its cost with the SUT's per request. */
    static RunSummary withDatabase() {
        LatencySummary l = new LatencySummary(1000, 1.0, 0.9, 1.5, 2.0, 3.0, 4.0, 5.0);
        RunSummary.Sut sut = new RunSummary.Sut(42L, 2.0, 1.5, 0.5, 20.0, 10.0, 2000.0, 500.0, 300.0, 310.0, 40,
                false, null, 0.1, 1.0, 1);
        RunSummary.Sut db = new RunSummary.Sut(43L, 1.0, 0.6, 0.4, 10.0, 5.0, 1000.0, 1000.0, 250.0, 260.0, 14,
                false, null, null, null, 14);
        return new RunSummary("trade", "lean", "scenario", "closed", 16, null, true, "completed", 10, 1000, 1000,
                Map.of("total", 0L), 100, 6.25, l, l, l, new RunSummary.Steadiness(true, 0.01, 0.1, 0, 10),
                new RunSummary.Driver(1, 10, false, null, 0, 16, null, 1, 1, 0), sut, null, null, null, null,
                Map.of("sut", sut, "postgres", db), null, null, null, null,
                new RunSummary.Database("postgres", 43L, 1.0, 10.0, 5.0, 1000.0, 250.0, 260.0, 14, 3000.0, 333.333), null, null);
    }

    @Test
    void aDatabaseHasItsLineAndItsCostWithTheSuts() {
        String text = ConsoleSummary.render(withDatabase());
        assertTrue(text.contains("postgres             pid 43 and the processes under it, 14 in all: cpu 1.00 s (10.0% of one "
                + "core), 1000.0 µs/request; pss 250.0 MB, 14 threads (not in the sut figures)"), text);
        assertTrue(text.contains("database             postgres: 1000.0 µs/request; sut + database 3000.0 µs/request "
                + "(333.3 requests per CPU-second)"), text);
    }

    /** A 20 s window with this steadiness, and the SUT's compilers at {@code jitPercent} (null: not measured). */
    private static RunSummary window(boolean steady, double cv, double driftPercent, Double jitPercent) {
        LatencySummary l = new LatencySummary(1000, 1.0, 0.9, 1.5, 2.0, 3.0, 4.0, 5.0);
        RunSummary.Sut sut = jitPercent == null ? null : new RunSummary.Sut(42L, 27.0, 17.0, 10.0, 135.0, 67.5, 28.0,
                35_700.0, 318.0, 322.0, 48, false, null, jitPercent / 100 * 20, jitPercent, 1);
        return new RunSummary("soap-echo", "lean", "echoComplexTypeDoc", "closed", 16, null, true, "completed", 20,
                900_000, 900_000, Map.of("total", 0L), 45_000, 2812.5, l, l, l,
                new RunSummary.Steadiness(steady, cv, driftPercent * 3, driftPercent, 20),
                new RunSummary.Driver(12, 60, false, null, 0, 16, null, 0, 0, 0), sut, null, null, null, null, null,
                null, null, null, null, null, null, null);
    }

    @Test
    void anUnsteadyWindowIsBlamedOnWhatTheRunMeasured() {
        assertEquals("", ConsoleSummary.steadinessHint(window(true, 0.03, 2, 0.0)));
        // rising with the compilers quiet (issue 36's run: 0.0 % of a core, +30 % across the window): not the warm-up
        String quiet = ConsoleSummary.steadinessHint(window(false, 0.144, 29.9, 0.0));
        assertTrue(quiet.contains("rose with the SUT's JIT compilers quiet (0.0% of a core), so not a warm-up"), quiet);
        assertTrue(quiet.contains("--cpus, --driver-cpus"), quiet);
        assertFalse(quiet.contains("--warmup"), quiet);
        // rising while compiling: the warm-up, with the compilers' share as the evidence
        String compiling = ConsoleSummary.steadinessHint(window(false, 0.2, 40, 15.0));
        assertTrue(compiling.contains("the SUT's JIT compilers at 15.0% of a core: not warm yet; give a longer --warmup"),
                compiling);
        // between quiet and busy, or not measured (a SUT perflab did not start): the likeliest cause, said as such
        assertTrue(ConsoleSummary.steadinessHint(window(false, 0.2, 40, 5.0)).contains("most often a SUT not warm yet"));
        assertTrue(ConsoleSummary.steadinessHint(window(false, 0.2, 40, null)).contains("most often a SUT not warm yet"));
        // falling, or a high spread without a trend: the same causes as before, the machine added when compilers were quiet
        String falling = ConsoleSummary.steadinessHint(window(false, 0.12, -15, 0.5));
        assertTrue(falling.startsWith(" — throughput falling during the window: look at GC (gc.log) and memory; a shared "
                + "machine's own speed"), falling);
        assertEquals(" — throughput falling during the window: look at GC (gc.log) and memory",
                ConsoleSummary.steadinessHint(window(false, 0.12, -15, 12.0)));
        assertTrue(ConsoleSummary.steadinessHint(window(false, 0.15, 3, 0.0)).contains("varied a lot from second to second: "
                + "see timeseries.csv; a shared machine's own speed"));
        assertTrue(ConsoleSummary.render(window(false, 0.144, 29.9, 0.0)).contains("steady               no (cv 0.144, "
                + "change +29.9% across 20 s, trend +89.70%/min) — throughput rose with"));
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

    @Test
    void aTableByKindWhenThereIsMoreThanOne() {
        LatencySummary l = new LatencySummary(10, 1.0, 0.9, 1.5, 2.0, 3.0, 4.0, 5.0);
        Map<String, RunSummary.Kind> kinds = new java.util.LinkedHashMap<>();
        kinds.put("quote", new RunSummary.Kind(30, 30, Map.of("total", 0L), 3.0, l));
        kinds.put("buy", new RunSummary.Kind(12, 10, Map.of("validation", 2L, "total", 2L), 1.0, l));
        StringBuilder out = new StringBuilder();
        ConsoleSummary.kinds(out, kinds);
        String text = out.toString();
        assertTrue(text.contains("quote"), text);
        assertTrue(text.matches("(?s).*buy\\s+12\\s+1\\.00\\s+2 \\(validation 2\\)\\s+0\\.900\\s+3\\.000\\s+5\\.000.*"), text);
        StringBuilder one = new StringBuilder();
        ConsoleSummary.kinds(one, Map.of("echo", kinds.get("quote")));
        assertEquals("", one.toString(), "one kind: the totals are its figures");
    }
}

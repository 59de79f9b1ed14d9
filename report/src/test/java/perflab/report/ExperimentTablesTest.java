package perflab.report;

import org.junit.jupiter.api.Test;
import perflab.core.result.ExperimentResult;
import perflab.core.result.ExperimentResult.Configuration;
import perflab.core.result.ExperimentResult.Interval;
import perflab.core.result.ExperimentResult.Run;
import perflab.core.result.ExperimentResult.Stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExperimentTablesTest {
    private static Configuration config(int i, String gc, String heap, double throughput, boolean failed) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("gc", gc);
        s.put("heap", heap);
        String label = String.format("%02d-gc-%s-heap-%s", i, gc, heap);
        if (failed) {
            return new Configuration(i, label, "gc=" + gc + " heap=" + heap, s, null, i == 1, "failed",
                    "the SUT failed to start: bad flag", List.of(new Run(1, label + "/rep-1", "failed", "bad flag",
                    null, null, null, null, null, null, null, null, null, null)), null, null, null, false);
        }
        Stats stats = new Stats(2, new Interval(2, throughput, 10.0, throughput - 90, throughput + 90),
                new Interval(2, 12.5, 1.0, 3.5, 21.5), 4.0, 9.0, 29.0, 150.0, 0);
        ExperimentResult.Gain gain = i == 1 ? null
                : new ExperimentResult.Gain("01-gc-parallel-heap-1g", 7.0, 3.1, 2.0, 0.012, true, -3.0, 0.6, false);
        return new Configuration(i, label, "gc=" + gc + " heap=" + heap, s, null, i == 1, "ok", null,
                List.of(new Run(1, label + "/rep-1", "ok", null, throughput, 12.5, 4.0, 0L, 9.0, 29.0, 150.0, gc, false, null),
                        new Run(2, label + "/rep-2", "ok", null, throughput, 12.5, 4.0, 0L, 9.0, 29.0, 150.0, gc, false, null)),
                stats, gain, null, true);
    }

    private static ExperimentResult result() {
        List<Configuration> configs = new ArrayList<>(List.of(config(1, "parallel", "1g", 804.79, false),
                config(2, "parallel", "4g", 859.87, false), config(3, "g1", "1g", 0, true)));
        return new ExperimentResult("heap-gc", null, "matrix", "soap-echo", "lean", "echoComplexTypeDoc", 2, "/tmp/x",
                "2026-01-01T00:00:00Z", "2026-01-01T00:10:00Z", "complete", 6, 6, List.of("gc", "heap"),
                new ExperimentResult.Objective(null, null, "highest mean throughput"), configs,
                new ExperimentResult.Best("02-gc-parallel-heap-4g", "gc=parallel heap=4g", 859.87, "highest mean throughput", 2, null),
                List.of(new ExperimentResult.Failure("03-gc-g1-heap-1g", 1, "the SUT failed to start: bad flag")), null);
    }

    @Test
    void markdownIsTheStudysTable() {
        String md = ExperimentTables.markdown(result());
        assertTrue(md.contains("| GC policy | heap | runs | throughput (req/s) | ± 95 % | p99 (ms) | GC overhead | total GC pause |"), md);
        assertTrue(md.contains("| parallel | 1g | 2 | 804.8 | 90.0 | 12.50 | 9.0 % | 29 ms |"), md);
        assertTrue(md.contains("|  | 4g | 2 | 859.9 |"), "rows grouped by the first setting: " + md);
        assertTrue(md.contains("+7.0 % | 0.012 |"), md);
        assertTrue(md.contains("| g1 | 1g | 0 of 1 | failed |"), md);
        assertTrue(md.contains("**Best configuration:** gc=parallel heap=4g"), md);
        assertTrue(md.contains("## Failures") && md.contains("bad flag"), md);
    }

    @Test
    void theVerdictGivesTheEvidenceOrTheLeadingCandidates() {
        ExperimentResult named = withBest(result(), new ExperimentResult.Best("02-gc-parallel-heap-4g", "gc=parallel heap=4g",
                859.87, "highest mean throughput", 2, null, new ExperimentResult.Evidence("02-gc-parallel-heap-4g",
                "01-gc-parallel-heap-1g", 6.8, 0.012, 0.05, 2)));
        assertEquals("gc=parallel heap=4g (`02-gc-parallel-heap-4g`), 859.9 req/s, +6.8% over gc=parallel heap=1g (p 0.012 "
                + "< 0.05, at least 2% asked). Rule: highest mean throughput (2 of 3 configurations qualified).",
                ExperimentTables.verdict(named));
        ExperimentResult none = withBest(result(), new ExperimentResult.Best(null, null, null, "highest mean throughput", 2,
                "no configuration beat the baseline gc=parallel heap=1g beyond noise: the leader gc=parallel heap=4g is "
                        + "+6.8% with p 0.59 (needs p < 0.05 and a gain of at least 2%)",
                new ExperimentResult.Evidence("02-gc-parallel-heap-4g", "01-gc-parallel-heap-1g", 6.8, 0.59, 0.05, 2)));
        String v = ExperimentTables.verdict(none);
        assertTrue(v.startsWith("none — no configuration beat the baseline"), v);
        assertTrue(v.contains("Leading: gc=parallel heap=4g 859.9 ± 90.00 req/s, gc=parallel heap=1g 804.8 ± 90.00 req/s"), v);
        assertTrue(ExperimentTables.markdown(none).contains("**Best configuration:** none — "));
    }

    @Test
    void aConfigurationWithTwoGroupsOfRunsIsSaidInWords() {
        Configuration c = result().configurations().get(1);
        Configuration split = new Configuration(c.index(), c.label(), c.name(), c.settings(), c.added(), c.baseline(),
                c.status(), c.failureReason(), c.runs(), c.stats(), c.gain(), c.stepGain(), c.meetsObjective(),
                new ExperimentResult.Bimodality(List.of(1), List.of(2), 4050.0, 14250.0,
                        "SUT JIT compiler 31.0% vs 2.0% of a core"));
        assertEquals("gc=parallel heap=4g — runs 1 at 4050.0 req/s, runs 2 at 14250.0 req/s: two behaviours, not noise, "
                + "so its interval is not a measure of precision. They differed in: SUT JIT compiler 31.0% vs 2.0% of a core.",
                ExperimentTables.bimodal(split));
    }

    private static ExperimentResult withBest(ExperimentResult r, ExperimentResult.Best best) {
        return new ExperimentResult(r.name(), r.description(), r.kind(), r.workload(), r.stack(), r.operation(), r.repeat(),
                r.directory(), r.startedAt(), r.updatedAt(), r.status(), r.runsDone(), r.runsTotal(), r.dimensions(),
                r.objective(), r.configurations(), best, r.failures(), r.rateSweep());
    }

    @Test
    void csvHasOneRowPerConfiguration() {
        List<String> lines = ExperimentTables.csv(result()).lines().toList();
        assertEquals(4, lines.size());
        assertTrue(lines.get(0).startsWith("label,name,gc,heap,status,runs,throughputMean,throughputSd,throughputCiLow"));
        String[] second = lines.get(2).split(",");
        assertEquals("02-gc-parallel-heap-4g", second[0]);
        assertEquals("859.87", second[6]);
        assertTrue(lines.get(2).contains(",true,true,parallel,false,"), lines.get(2)); // meets objective, best
        assertTrue(lines.get(3).contains("failed") && lines.get(3).endsWith("the SUT failed to start: bad flag"), lines.get(3));
    }

    @Test
    void profiledRunsListTheirHottestFrames(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        ExperimentResult r = result();
        assertEquals("", ExperimentTables.profiles(r, dir), "no profile, no section");
        String run = r.configurations().get(0).runs().get(0).directory();
        java.nio.file.Files.createDirectories(dir.resolve(run));
        java.nio.file.Files.writeString(dir.resolve(run).resolve("profile-sut.collapsed"),
                "Thread.run;Handler.handle;Parser.next 75\nThread.run;Handler.handle 25\n");
        String md = ExperimentTables.profiles(r, dir);
        assertTrue(md.contains("## Hottest frames of the profiled runs"), md);
        assertTrue(md.contains("- " + run + ", sut: `Parser.next` 75.0 %, `Handler.handle` 25.0 %"), md);
    }
}

package perflab.experiment.study;

import org.junit.jupiter.api.Test;
import perflab.core.config.ExperimentSpec;
import perflab.core.result.ExperimentResult;
import perflab.core.result.LatencySummary;
import perflab.core.result.RunSummary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExperimentAnalysisTest {
    private static final ExperimentAnalysis.Header HEADER = new ExperimentAnalysis.Header("t", null, "soap-echo",
            "lean", "echoComplexTypeDoc", 3, "/tmp/t", "2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z", "complete");

    static RunSummary summary(double throughput, double p99, long errors, Double rate) {
        LatencySummary l = new LatencySummary(1000, p99 / 3, p99 / 4, p99 / 2, p99 / 1.5, p99, p99 * 2, p99 * 3);
        return new RunSummary("soap-echo", "lean", "echoComplexTypeDoc", rate == null ? "closed" : "open", 16, rate,
                true, "completed", 10, 1000, 1000, Map.of("total", errors), throughput, throughput / 16, l, l, l,
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    static ExperimentAnalysis.ConfigurationRuns config(int index, String name, double rate, RunSummary... runs) {
        List<RunRecord> records = new ArrayList<>();
        for (int i = 0; i < runs.length; i++) {
            records.add(new RunRecord(i + 1, "x/rep-" + (i + 1), RunRecord.OK, null, runs[i], "g1", false));
        }
        Map<String, String> s = Map.of("gc", name);
        return new ExperimentAnalysis.ConfigurationRuns(new Variant(index, String.format("%02d-%s", index, name), name, s, s, null),
                rate, records);
    }

    static ExperimentSpec spec(ExperimentSpec.Objective objective) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("gc", List.of("a", "b", "c", "d"));
        return new ExperimentSpec("t", null, "soap-echo", Map.of(), 3, m, List.of(), null, objective);
    }

    @Test
    void gainOverTheBaselineWithWelchsTest() {
        ExperimentResult r = ExperimentAnalysis.analyze(spec(null), HEADER, List.of(
                config(1, "a", 0, summary(1012.0, 5, 0, null), summary(1030.5, 5, 0, null), summary(998.2, 5, 0, null), summary(1021.7, 5, 0, null)),
                config(2, "b", 0, summary(1060.3, 5, 0, null), summary(1071.9, 5, 0, null), summary(1049.4, 5, 0, null),
                        summary(1080.1, 5, 0, null), summary(1066.0, 5, 0, null))));
        ExperimentResult.Configuration b = r.configurations().get(1);
        assertTrue(r.configurations().get(0).baseline());
        assertNull(r.configurations().get(0).gain());
        assertEquals(5, b.stats().runs());
        assertEquals(0.0012368, b.gain().pValue(), 1e-6);
        assertTrue(b.gain().significant());
        assertEquals((1065.54 / 1015.6 - 1) * 100, b.gain().throughputPercent(), 1e-2);
        assertEquals("01-a", b.gain().over());
        assertEquals(List.of("gc"), r.dimensions());
    }

    @Test
    void bestIsTheHighestThroughputWithZeroErrorsThatMeetsTheLatencyGoal() {
        List<ExperimentAnalysis.ConfigurationRuns> configs = List.of(
                config(1, "a", 0, summary(1000, 20, 0, null), summary(1010, 22, 0, null)),
                config(2, "b", 0, summary(1500, 30, 3, null), summary(1510, 30, 0, null)), // fastest, but errors
                config(3, "c", 0, summary(1200, 80, 0, null), summary(1210, 70, 0, null)), // misses p99 <= 50
                config(4, "d", 0, summary(1100, 40, 0, null), summary(1120, 45, 0, null)));
        ExperimentResult r = ExperimentAnalysis.analyze(spec(new ExperimentSpec.Objective("p99", 50)), HEADER, configs);
        assertEquals("04-d", r.best().label());
        assertEquals(2, r.best().qualified());
        assertTrue(r.best().rule().contains("zero errors") && r.best().rule().contains("p99 <= 50 ms"), r.best().rule());
        assertFalse(r.configurations().get(1).meetsObjective());
        assertFalse(r.configurations().get(2).meetsObjective());

        ExperimentResult noGoal = ExperimentAnalysis.analyze(spec(null), HEADER, configs);
        assertEquals("03-c", noGoal.best().label()); // without a latency goal, only errors disqualify
    }

    @Test
    void aFailedConfigurationIsRecordedAndNeverBest() {
        List<RunRecord> failed = List.of(new RunRecord(1, "02-b/rep-1", RunRecord.FAILED,
                "the SUT failed to start: Unrecognized VM option 'NoSuchFlag'", null, null, null),
                new RunRecord(2, "02-b/rep-2", RunRecord.FAILED, "not run: ...", null, null, null));
        Map<String, String> s = Map.of("jvm", "-XX:+NoSuchFlag");
        ExperimentResult r = ExperimentAnalysis.analyze(spec(null), HEADER, List.of(
                config(1, "a", 0, summary(1000, 20, 0, null), summary(1010, 22, 0, null)),
                new ExperimentAnalysis.ConfigurationRuns(new Variant(2, "02-b", "b", s, s, null), 0, failed)));
        ExperimentResult.Configuration b = r.configurations().get(1);
        assertEquals("failed", b.status());
        assertTrue(b.failureReason().contains("NoSuchFlag"));
        assertNull(b.stats());
        assertNull(b.gain());
        assertEquals(2, r.failures().size());
        assertEquals("01-a", r.best().label());
        assertEquals(4, r.runsDone());
    }

    @Test
    void noBestWhenTheLeadIsWithinNoiseAndTheReasonSaysWhy() {
        // the case: wide intervals, a leader only by chance
        ExperimentResult r = ExperimentAnalysis.analyze(spec(null), HEADER, List.of(
                config(1, "a", 0, summary(4000, 5, 0, null), summary(14000, 5, 0, null)),
                config(2, "b", 0, summary(4200, 5, 0, null), summary(15000, 5, 0, null))));
        assertNull(r.best().label());
        assertTrue(r.best().reason().startsWith("no configuration beat the baseline a beyond noise: the leader b is +6.7%"),
                r.best().reason());
        assertEquals("02-b", r.best().evidence().leader());
        assertEquals("01-a", r.best().evidence().comparedWith());
        assertTrue(r.best().evidence().pValue() > 0.05);
    }

    @Test
    void aRealButSmallGainIsNotWorthAChange() {
        ExperimentResult r = ExperimentAnalysis.analyze(spec(null), HEADER, List.of(
                config(1, "a", 0, summary(1000, 5, 0, null), summary(1001, 5, 0, null), summary(1002, 5, 0, null)),
                config(2, "b", 0, summary(1010, 5, 0, null), summary(1011, 5, 0, null), summary(1012, 5, 0, null))));
        assertTrue(r.configurations().get(1).gain().significant(), "+1 % with tiny spread is significant");
        assertNull(r.best().label(), "but below the 2 % minimum effect");
        ExperimentSpec lenient = new ExperimentSpec("t", null, "soap-echo", Map.of(), 3, spec(null).matrix(), List.of(),
                null, null, new ExperimentSpec.Decision(0.05, 0.5));
        assertEquals("02-b", ExperimentAnalysis.analyze(lenient, HEADER, List.of(
                config(1, "a", 0, summary(1000, 5, 0, null), summary(1001, 5, 0, null), summary(1002, 5, 0, null)),
                config(2, "b", 0, summary(1010, 5, 0, null), summary(1011, 5, 0, null), summary(1012, 5, 0, null))))
                .best().label());
    }

    @Test
    void aLeadingBaselineMustBeatTheRunnerUp() {
        ExperimentResult r = ExperimentAnalysis.analyze(spec(null), HEADER, List.of(
                config(1, "a", 0, summary(1200, 5, 0, null), summary(1210, 5, 0, null), summary(1190, 5, 0, null)),
                config(2, "b", 0, summary(1000, 5, 0, null), summary(1010, 5, 0, null), summary(990, 5, 0, null)),
                config(3, "c", 0, summary(900, 5, 0, null), summary(910, 5, 0, null), summary(890, 5, 0, null))));
        assertEquals("01-a", r.best().label());
        assertEquals("02-b", r.best().evidence().comparedWith());
        assertEquals(20.0, r.best().evidence().gainPercent(), 0.01);
    }

    @Test
    void oneRunEachCannotDecide() {
        ExperimentResult r = ExperimentAnalysis.analyze(spec(null), HEADER, List.of(
                config(1, "a", 0, summary(1000, 5, 0, null)), config(2, "b", 0, summary(2000, 5, 0, null))));
        assertNull(r.best().label());
        assertTrue(r.best().reason().startsWith("too few runs to tell: b leads the baseline a by +100.0%"), r.best().reason());
    }

    @Test
    void runsInTwoGroupsAreFlaggedWithWhatElseDiffered() {
        ExperimentResult r = ExperimentAnalysis.analyze(spec(null), HEADER, List.of(
                config(1, "a", 0, summary(1000, 5, 0, null), summary(1010, 5, 0, null), summary(1005, 5, 0, null)),
                config(2, "b", 0, summary(4000, 5, 0, null), summary(14000, 5, 0, null), summary(4100, 5, 0, null),
                        summary(14500, 5, 0, null))));
        assertNull(r.configurations().get(0).bimodal());
        ExperimentResult.Bimodality b = r.configurations().get(1).bimodal();
        assertEquals(List.of(1, 3), b.lowRuns());
        assertEquals(List.of(2, 4), b.highRuns());
        assertEquals(4050, b.lowMean(), 0.01);
        assertEquals(14250, b.highMean(), 0.01);
        assertEquals("nothing else measured", b.differedIn(), "these summaries carry no SUT or GC figures");
        // two runs: judged by how far apart they are
        assertTrue(ExperimentAnalysis.bimodality(config(1, "x", 0, summary(4000, 5, 0, null), summary(9000, 5, 0, null)).runs()) != null);
        assertNull(ExperimentAnalysis.bimodality(config(1, "x", 0, summary(4000, 5, 0, null), summary(4400, 5, 0, null)).runs()));
    }

    @Test
    void noBestWhenEveryConfigurationHasErrors() {
        ExperimentResult r = ExperimentAnalysis.analyze(spec(null), HEADER, List.of(
                config(1, "a", 0, summary(1000, 20, 1, null))));
        assertNull(r.best().label());
        assertTrue(r.best().reason().contains("zero errors"), r.best().reason());
    }

    @Test
    void rateSweepKneeAndHighestRateMeetingTheGoal() {
        double[] rates = {1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000};
        double[] p99 = {2, 2, 2.1, 2.2, 2.3, 10, 40, 120};
        List<ExperimentAnalysis.ConfigurationRuns> configs = new ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            // the SUT keeps up to 6000 req/s, then saturates near 6300
            double throughput = Math.min(rates[i], 6300);
            long errors = rates[i] == 8000 ? 12 : 0;
            configs.add(config(i + 1, "r" + (int) rates[i], rates[i], summary(throughput, p99[i], errors, rates[i])));
        }
        ExperimentSpec spec = new ExperimentSpec("t", null, "soap-echo", Map.of(), 1, Map.of(), List.of(),
                new ExperimentSpec.RateSweep(List.of("1000", "2000", "3000", "4000", "5000", "6000", "7000", "8000")),
                new ExperimentSpec.Objective("p99", 5));
        ExperimentResult r = ExperimentAnalysis.analyze(spec, HEADER, configs);
        ExperimentResult.RateSweep sweep = r.rateSweep();
        assertEquals(8, sweep.points().size());
        assertEquals(6000, sweep.kneeRate());
        assertEquals(5000, sweep.maxRateMeetingGoal()); // 6000 keeps up but misses p99 <= 5 ms
        assertEquals(5000, sweep.throughputAtMaxRate());
        assertFalse(sweep.points().get(6).keptUp()); // 6300 of 7000
        assertTrue(sweep.points().get(5).keptUp());

        ExperimentSpec noGoal = new ExperimentSpec("t", null, "soap-echo", Map.of(), 1, Map.of(), List.of(),
                spec.rateSweep(), null);
        assertEquals(6000, ExperimentAnalysis.analyze(noGoal, HEADER, configs).rateSweep().maxRateMeetingGoal());
    }

    @Test
    void aFlatCurveHasNoKnee() {
        List<ExperimentResult.RatePoint> flat = List.of(new ExperimentResult.RatePoint("a", 100, 100.0, 2.0, 0, true, true),
                new ExperimentResult.RatePoint("b", 200, 200.0, 2.0, 0, true, true),
                new ExperimentResult.RatePoint("c", 300, 300.0, 2.0, 0, true, true));
        assertNull(ExperimentAnalysis.knee(flat));
        assertNull(ExperimentAnalysis.knee(flat.subList(0, 2)));
    }

    @Test
    void stepsHaveCumulativeAndStepGains() {
        List<ExperimentSpec.Step> steps = List.of(new ExperimentSpec.Step("defaults", Map.of()),
                new ExperimentSpec.Step("heap", Map.of("heap", "1g")), new ExperimentSpec.Step("threads", Map.of("server-threads", "8")));
        ExperimentSpec spec = new ExperimentSpec("t", null, "soap-echo", Map.of(), 2, Map.of(), steps, null, null);
        ExperimentResult r = ExperimentAnalysis.analyze(spec, HEADER, List.of(
                config(1, "defaults", 0, summary(100, 5, 0, null), summary(102, 5, 0, null)),
                config(2, "heap", 0, summary(150, 5, 0, null), summary(152, 5, 0, null)),
                config(3, "threads", 0, summary(165, 5, 0, null), summary(167, 5, 0, null))));
        ExperimentResult.Configuration last = r.configurations().get(2);
        assertEquals((166.0 / 101 - 1) * 100, last.gain().throughputPercent(), 1e-2);
        assertEquals((166.0 / 151 - 1) * 100, last.stepGain().throughputPercent(), 1e-2);
        assertEquals("02-heap", last.stepGain().over());
        assertEquals(List.of("heap", "server-threads"), r.dimensions());
        assertEquals("steps", r.kind());
    }
}

package perflab.experiment.study;

import org.junit.jupiter.api.Test;
import perflab.core.config.ExperimentSpec;
import perflab.core.result.ExperimentResult;
import perflab.core.result.RunSummary;
import perflab.core.workload.CapacityMeasure;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Trials judged by a workload's own measure (users/s, a latency from its figures, failed calls) and what they add up to. */
class RateSearchAnalysisTest {
    /** A measure like voicemail's: users per second from the figures, p95 of a figure, failed calls. */
    private static final CapacityMeasure USERS = new CapacityMeasure("users/s", "p95 NOTIFY-to-200", 60.0,
            s -> CapacityMeasure.figure(s, "usersPerSecond"), s -> CapacityMeasure.figure(s, "notifyMs", "p95"),
            s -> CapacityMeasure.driverErrors(s) + (long) (double) CapacityMeasure.figure(s, "failedCalls"));

    private static final ExperimentSpec SPEC = new ExperimentSpec("capacity", null, "voicemail", Map.of(), 1, Map.of(),
            List.of(), null, null, null, new ExperimentSpec.RateSearch("100", null, 5, null, true, 16));

    private static RunSummary trial(double users, double notifyP95, long failedCalls, long driverErrors) {
        return ExperimentAnalysisTest.summary(users * 2.5, 12, driverErrors, users).withFigures(Map.of(
                "usersPerSecond", users, "notifyMs", Map.of("p95", notifyP95, "count", 100L), "failedCalls", failedCalls));
    }

    private static ExperimentAnalysis.ConfigurationRuns run(int index, double rate, RunSummary s) {
        return new ExperimentAnalysis.ConfigurationRuns(Variants.searchTrial(SPEC, index, CapacitySearch.fmt(rate)), rate,
                List.of(new RunRecord(1, Variants.searchTrial(SPEC, index, CapacitySearch.fmt(rate)).label(), RunRecord.OK,
                        null, s, "g1", false)));
    }

    @Test
    void aTrialPassesOnlyWithNoFailureTheRateCarriedAndTheLatencyGoalMet() {
        RunRecord ok = new RunRecord(1, "01-rate=100", RunRecord.OK, null, trial(99, 20, 0, 0), null, null);
        assertEquals("passed", RateSearchAnalysis.judge(1, "01-rate=100", 100, ok, SPEC, USERS).why());
        ExperimentResult.SearchTrial slow = RateSearchAnalysis.judge(1, "x", 100,
                new RunRecord(1, "x", RunRecord.OK, null, trial(99, 75, 0, 0), null, null), SPEC, USERS);
        assertFalse(slow.passed());
        assertEquals("p95 NOTIFY-to-200 75.0 ms > 60 ms", slow.why());
        ExperimentResult.SearchTrial behind = RateSearchAnalysis.judge(1, "x", 100,
                new RunRecord(1, "x", RunRecord.OK, null, trial(90, 20, 2, 3), null, null), SPEC, USERS);
        assertEquals("5 failed; carried 90.0 of 100 users/s", behind.why(), "failed calls and the driver's errors add up");
        ExperimentResult.SearchTrial crashed = RateSearchAnalysis.judge(1, "x", 100,
                new RunRecord(1, "x", RunRecord.FAILED, "the SUT exited with 137", null, null, null), SPEC, USERS);
        assertEquals("the run failed: the SUT exited with 137", crashed.why());
        assertNull(RateSearchAnalysis.judge(1, "x", 100, RunRecord.pending(1, "x"), SPEC, USERS), "not a trial yet");
        ExperimentSpec stricter = new ExperimentSpec("c", null, "voicemail", Map.of(), 1, Map.of(), List.of(), null, null,
                null, new ExperimentSpec.RateSearch("100", null, 5, 10.0, true, 16));
        assertFalse(RateSearchAnalysis.judge(1, "x", 100, ok, stricter, USERS).passed(), "the search's goal over the workload's");
    }

    @Test
    void theResultNamesTheCapacityTheFirstFailureAndTheFiguresAtTheCapacity() {
        List<ExperimentAnalysis.ConfigurationRuns> runs = List.of(run(1, 100, trial(100, 10, 0, 0)),
                run(2, 200, trial(150, 90, 40, 0)), run(3, 150, trial(149, 30, 0, 0)), run(4, 165, trial(164, 61, 0, 0)),
                run(5, 160, trial(159, 40, 0, 0)), run(6, 160, trial(160, 41, 0, 0)));
        ExperimentResult r = ExperimentAnalysis.analyze(SPEC, new ExperimentAnalysis.Header("capacity", null, "voicemail",
                "lean", "converged", 1, "/x", "t0", "t1", "complete"), runs, USERS);
        ExperimentResult.RateSearch s = r.rateSearch();
        assertEquals("rate-search", r.kind());
        assertEquals(160.0, s.capacity());
        assertEquals(165.0, s.firstFailedRate());
        assertTrue(s.confirmed());
        assertEquals("06-rate-160", s.capacityRun(), "the last trial at the capacity");
        assertEquals(160.0, s.figuresAtCapacity().get("usersPerSecond"));
        assertEquals("160 passed and 165 failed: within 5%", s.stopReason());
        assertEquals(List.of(true, false, true, false, true, true), s.trials().stream().map(ExperimentResult.SearchTrial::passed).toList());
        assertEquals("06-rate-160", r.best().label());
        assertTrue(s.goal().contains("p95 NOTIFY-to-200 <= 60 ms"), s.goal());
    }
}

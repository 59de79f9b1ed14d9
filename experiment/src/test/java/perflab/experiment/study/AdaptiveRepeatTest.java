package perflab.experiment.study;

import org.junit.jupiter.api.Test;
import perflab.core.config.ExperimentSpec;
import perflab.core.result.ExperimentResult;
import perflab.core.result.RunSummary;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Adaptive repetition against a synthetic SUT: each run's throughput drawn from a seeded normal distribution
 * around its configuration's true mean, 8 % noise (a shared 2-CPU machine), rounds judged as the runner does.
 */
class AdaptiveRepeatTest {
    private static final ExperimentAnalysis.Header HEADER = new ExperimentAnalysis.Header("t", null, "soap-echo",
            "lean", "echoComplexTypeDoc", 3, "/tmp/t", "2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z", "running");

    /** Rounds until the rule stops, the stop reason and the result then. */
    private record Outcome(int rounds, String reason, ExperimentResult result) {
    }

    private static Outcome adapt(double meanA, double meanB, double noise, long seed, int maxRounds) {
        SplittableRandom random = new SplittableRandom(seed);
        List<RunSummary> a = new ArrayList<>();
        List<RunSummary> b = new ArrayList<>();
        ExperimentSpec spec = ExperimentAnalysisTest.spec(null);
        for (int round = 1; ; round++) {
            a.add(ExperimentAnalysisTest.summary(meanA * (1 + noise * gaussian(random)), 5, 0, null));
            b.add(ExperimentAnalysisTest.summary(meanB * (1 + noise * gaussian(random)), 5, 0, null));
            ExperimentResult r = ExperimentAnalysis.analyze(spec, HEADER, List.of(
                    ExperimentAnalysisTest.config(1, "a", 0, a.toArray(RunSummary[]::new)),
                    ExperimentAnalysisTest.config(2, "b", 0, b.toArray(RunSummary[]::new))));
            String reason = AdaptiveRepeat.stopReason(r, round, maxRounds, 3);
            if (reason != null) {
                return new Outcome(round, reason, r);
            }
        }
    }

    private static double gaussian(SplittableRandom r) {
        double u = 1 - r.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    @Test
    void aTenPercentDifferenceGetsABestAfterEnoughRounds() {
        int named = 0;
        for (long seed = 1; seed <= 20; seed++) {
            Outcome o = adapt(1000, 1100, 0.08, seed, 20);
            assertTrue(o.rounds() >= AdaptiveRepeat.MIN_ROUNDS);
            if (o.reason().contains("separated") && "02-b".equals(o.result().best().label())) {
                named++;
            }
        }
        assertTrue(named >= 15, "a real 10 % gain is found in most experiments: " + named + " of 20");
    }

    @Test
    void twoConfigurationsThatDoNotDifferGetNoBest() {
        int named = 0;
        for (long seed = 1; seed <= 20; seed++) {
            Outcome o = adapt(1000, 1000, 0.08, seed, 10);
            if (o.result().best().label() != null) {
                named++;
            }
        }
        assertTrue(named <= 2, "no difference, no best (alpha 0.05 and a 2 % minimum effect): " + named + " of 20");
    }

    @Test
    void quietRunsStopOnceEveryIntervalIsNarrow() {
        Outcome o = adapt(1000, 1000, 0.005, 7, 10);
        assertEquals(3, o.rounds(), o.reason());
        assertTrue(o.reason().contains("within ±3 % of its mean"), o.reason());
        assertNull(o.result().best().label());
    }

    @Test
    void noJudgementBeforeThreeRoundsAndAnEndAtTheMaximum() {
        ExperimentResult r = ExperimentAnalysis.analyze(ExperimentAnalysisTest.spec(null), HEADER, List.of(
                ExperimentAnalysisTest.config(1, "a", 0, ExperimentAnalysisTest.summary(1000, 5, 0, null),
                        ExperimentAnalysisTest.summary(1001, 5, 0, null)),
                ExperimentAnalysisTest.config(2, "b", 0, ExperimentAnalysisTest.summary(2000, 5, 0, null),
                        ExperimentAnalysisTest.summary(2001, 5, 0, null))));
        assertNull(AdaptiveRepeat.stopReason(r, 2, 10, 3), "two rounds separate, but are too few to judge");
        assertEquals("after 10 rounds the leaders' 95 % intervals separated (b above a)", AdaptiveRepeat.stopReason(r, 10, 10, 3));
        assertEquals("reached the maximum of 2 rounds without a clear answer", AdaptiveRepeat.stopReason(r, 2, 2, 3));
    }
}

package perflab.history.gate;

import org.junit.jupiter.api.Test;
import perflab.history.RunFigure;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --no-regression}'s evidence rule on seeded series at this machine's noise (throughput of repeats varies by
 * about 3 %): how often it cries wolf over runs of an unchanged configuration, and how often it sees a planted step.
 */
class RegressionCheckTest {
    private static final double CV = 0.03;
    private static final RegressionCheck.Settings RULE = RegressionCheck.Settings.DEFAULT;

    private static double[] runs(SplittableRandom random, int n, double level) {
        double[] xs = new double[n];
        for (int i = 0; i < n; i++) {
            double g = Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
            xs[i] = 1000 * level * (1 + CV * g);
        }
        return xs;
    }

    /** How many of {@code trials} new results (of {@code repeats} runs at {@code level}) are flagged against 20 runs at 1. */
    private static int flagged(long seed, int trials, int repeats, double level) {
        SplittableRandom random = new SplittableRandom(seed);
        int n = 0;
        for (int t = 0; t < trials; t++) {
            if (RegressionCheck.compare(RunFigure.THROUGHPUT, runs(random, 20, 1), runs(random, repeats, level), 21, RULE)
                    .regression()) {
                n++;
            }
        }
        return n;
    }

    @Test
    void anUnchangedConfigurationIsRarelyFlagged() {
        for (int repeats : new int[]{1, 3}) {
            int trials = 4000;
            double rate = (double) flagged(11, trials, repeats, 1.0) / trials;
            System.out.printf("regression check: false alarms on %.2f %% of %d unchanged results of %d run%s against 20%n",
                    rate * 100, trials, repeats, repeats == 1 ? "" : "s");
            // alpha 0.01, one direction: about 0.5 %
            assertTrue(rate <= 0.012, "false-alarm rate " + rate + " with " + repeats + " repeats");
        }
    }

    @Test
    void aPlantedStepIsFlagged() {
        // 3 repeats 10 % slower: Welch's t about 5; one run 20 % slower: 6.5 standard deviations off the baseline
        assertTrue(flagged(12, 200, 3, 0.90) >= 196, "3 repeats 10 % slower");
        assertTrue(flagged(13, 200, 1, 0.80) >= 196, "one run 20 % slower");
        // a change inside the minimum effect (2 %) is no regression, however sure the test is of it
        RegressionCheck.Finding small = RegressionCheck.compare(RunFigure.THROUGHPUT,
                new double[]{1000, 1000.1, 999.9, 1000}, new double[]{985, 985.1}, 5, RULE);
        assertTrue(small.p() < 1e-6, small.describe());
        assertFalse(small.regression(), small.describe());
    }

    @Test
    void anImprovementIsNeverARegression() {
        assertEquals(0, flagged(15, 200, 3, 1.5));
        RegressionCheck.Finding f = RegressionCheck.compare(RunFigure.P99, new double[]{10, 10.2, 9.9, 10.1},
                new double[]{5}, 5, RULE);
        assertFalse(f.regression());
        assertTrue(f.changePercent() < -45, f.describe());
    }

    @Test
    void theBaselineStartsAtTheLastChangePoint() {
        // 15 runs at an old, slow level, then 15 at today's: a new run at today's level is no regression, and it is
        // compared with today's 15 only
        SplittableRandom random = new SplittableRandom(16);
        double[] earlier = new double[30];
        System.arraycopy(runs(random, 15, 0.7), 0, earlier, 0, 15);
        System.arraycopy(runs(random, 15, 1.0), 0, earlier, 15, 15);
        RegressionCheck.Finding f = RegressionCheck.compare(RunFigure.THROUGHPUT, earlier, new double[]{1000}, 31, RULE);
        assertEquals(15, f.baselineRuns(), f.describe());
        assertFalse(f.regression(), f.describe());
        // the same run against today's level 20 % higher is a regression, named from its run
        for (int i = 15; i < 30; i++) {
            earlier[i] *= 1.25;
        }
        f = RegressionCheck.compare(RunFigure.THROUGHPUT, earlier, new double[]{1000}, 31, RULE);
        assertTrue(f.regression(), f.describe());
        assertTrue(f.describe().endsWith("REGRESSION from run 31"), f.describe());
    }

    @Test
    void tooShortAHistoryIsSaidNotJudged() {
        RegressionCheck.Finding f = RegressionCheck.compare(RunFigure.CPU_PER_REQUEST, new double[]{50, 51},
                new double[]{500}, 3, RULE);
        assertFalse(f.regression());
        assertNull(f.p());
        assertEquals("cpuPerRequest: 2 earlier runs of this configuration: 3 or more are needed to compare with",
                f.describe());
    }
}

package perflab.experiment.run;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WarmupJudgeTest {
    private static WarmupJudge.Second second(double throughput, double sutJit, double driverJit) {
        return new WarmupJudge.Second(1, throughput, 0.5, sutJit, Double.NaN, driverJit);
    }

    /** Seconds fed until the judge says warm, or -1. */
    private static int warmAt(WarmupJudge judge, WarmupJudge.Second... seconds) {
        for (int i = 0; i < seconds.length; i++) {
            if (judge.warm(seconds[i])) {
                return i + 1;
            }
        }
        return -1;
    }

    /** n seconds at one throughput, the compilers quiet. */
    private static WarmupJudge.Second[] flat(int n, double throughput) {
        WarmupJudge.Second[] seconds = new WarmupJudge.Second[n];
        java.util.Arrays.fill(seconds, second(throughput, 0, 0));
        return seconds;
    }

    @Test
    void steadyThroughputWithQuietCompilersIsWarmOnceItsTrendCanBeJudged() {
        WarmupJudge judge = new WarmupJudge(false);
        assertEquals(-1, warmAt(judge, second(1000, 2, 1), second(1040, 2, 1), second(980, 1.5, 1), second(1010, 1, 1),
                second(1000, 0, 0), second(1000, 0, 0)));
        assertTrue(judge.notWarmBecause().contains("fewer than the 20 s"), judge.notWarmBecause());
        assertEquals(14, warmAt(judge, flat(20, 1000)));
        assertNull(judge.notWarmBecause());
    }

    @Test
    void aBusySutCompilerKeepsItWarmingWhateverTheThroughput() {
        WarmupJudge judge = new WarmupJudge(false);
        assertEquals(-1, warmAt(judge, flat(15, 1000)));
        assertEquals(-1, warmAt(judge, second(1000, 30, 0), second(1000, 30, 0), second(1000, 12, 0),
                second(1000, 0, 0), second(1000, 0, 0)));
        assertEquals("SUT JIT compiler at 30% of a core", judge.notWarmBecause());
        // the compiler's last busy second leaves the five-second window after five quiet ones
        assertEquals(3, warmAt(judge, flat(3, 1000)));
    }

    /**
     * CXF pinned to one CPU (results/full-jdk17-vs-25, a run the judge used to call warm after 11 s): a plateau at
     * 2,000 req/s with the compilers at 2-8 % of a core, then C2's compiles, then 12,000 req/s with them quiet. The
     * plateau is steady by throughput; only the compilers tell it apart.
     */
    @Test
    void aLowPlateauWhileTheCompilersStillWorkIsNotWarm() {
        WarmupJudge judge = new WarmupJudge(false);
        double[][] plateau = {{1800, 6}, {1800, 6}, {1900, 4}, {1900, 3}, {1900, 6}, {2000, 6}, {2100, 3}, {2000, 6},
                {2000, 5}, {2100, 5}, {2000, 8}, {2200, 6}, {2100, 8}};
        for (double[] s : plateau) {
            assertFalse(judge.warm(second(s[0], s[1], 0)), "warm on the plateau at " + s[0] + " req/s");
        }
        assertTrue(judge.notWarmBecause().startsWith("SUT JIT compiler at "), judge.notWarmBecause());
        double[][] compiling = {{1000, 60}, {900, 71}, {3400, 16}, {100, 95}, {6400, 13}, {11300, 5}};
        for (double[] s : compiling) {
            assertFalse(judge.warm(second(s[0], s[1], 0)), "warm while compiling at " + s[0] + " req/s");
        }
        // five quiet seconds at 12,000 are steady, but the climb from 2,000 is still in the trend's 20 s
        assertEquals(-1, warmAt(judge, second(12600, 1, 0), second(12000, 2, 0), second(12100, 1, 0),
                second(12500, 0, 0), second(12400, 0, 0)));
        assertTrue(judge.notWarmBecause().startsWith("throughput climbed "), judge.notWarmBecause());
        int at = warmAt(judge, flat(20, 12300));
        assertTrue(at > 5 && at < 20, "warm " + at + " s later");
    }

    /**
     * A slow climb (+36 %/min, as a quick start on a Xeon host showed after its warm-up ended at 45 s): any five
     * seconds of it lie within 10 % of their mean, so only the trend tells it is still warming.
     */
    @Test
    void aSlowClimbWithinTheSpreadIsNotWarm() {
        WarmupJudge judge = new WarmupJudge(false);
        java.util.Random noise = new java.util.Random(36);
        for (int t = 0; t < 120; t++) {
            double throughput = 20_000 * Math.exp(0.36 * t / 60) * (1 + 0.02 * noise.nextGaussian());
            assertFalse(judge.warm(second(throughput, 0, 0)), "warm at " + t + " s while climbing 36 %/min");
        }
        assertTrue(judge.notWarmBecause().startsWith("throughput climbed "), judge.notWarmBecause());
    }

    /** A flat throughput with 3 % of per-second noise ends its warm-up soon after the trend's 20 s, whatever the seed. */
    @Test
    void aFlatNoisyThroughputIsWarmSoonAfterTwentySeconds() {
        int late = 0;
        for (int seed = 0; seed < 200; seed++) {
            WarmupJudge judge = new WarmupJudge(false);
            java.util.Random noise = new java.util.Random(seed);
            int at = -1;
            for (int t = 1; t <= 120 && at < 0; t++) {
                if (judge.warm(second(20_000 * (1 + 0.03 * noise.nextGaussian()), 0, 0))) {
                    at = t;
                }
            }
            assertTrue(at >= 20, "seed " + seed + ": warm at " + at + " s");
            if (at > 30) {
                late++;
            }
        }
        assertTrue(late <= 20, late + " of 200 flat warm-ups took more than 30 s");
    }

    @Test
    void theDriversCompilerCountsToo() {
        WarmupJudge judge = new WarmupJudge(false);
        assertEquals(-1, warmAt(judge, second(1000, Double.NaN, 25), second(1000, Double.NaN, 25),
                second(1000, Double.NaN, 25), second(1000, Double.NaN, 25), second(1000, Double.NaN, 25)));
        assertTrue(judge.notWarmBecause().startsWith("driver JIT compiler at 25%"), judge.notWarmBecause());
    }

    @Test
    void risingThroughputIsNotWarm() {
        WarmupJudge judge = new WarmupJudge(false);
        assertEquals(-1, warmAt(judge, second(1000, 0, 0), second(1100, 0, 0), second(1200, 0, 0),
                second(1300, 0, 0), second(1400, 0, 0), second(1500, 0, 0)));
        assertTrue(judge.notWarmBecause().startsWith("throughput ") && judge.notWarmBecause().contains("more than 10% from"),
                judge.notWarmBecause());
    }

    @Test
    void noSuccessfulRequestIsNeverWarm() {
        WarmupJudge judge = new WarmupJudge(false);
        assertEquals(-1, warmAt(judge, second(0, 0, 0), second(0, 0, 0), second(0, 0, 0), second(0, 0, 0),
                second(0, 0, 0), second(0, 0, 0)));
        assertTrue(judge.notWarmBecause().contains("no request succeeded"), judge.notWarmBecause());
    }

    @Test
    void theOpenModelJudgesMedianLatencyNotItsFixedThroughput() {
        WarmupJudge open = new WarmupJudge(true);
        for (double p50 : new double[] {5.0, 4.0, 3.0, 2.0, 1.5}) {
            assertFalse(open.warm(new WarmupJudge.Second(1, 1000, p50, 0, 0, 0)), "latency still falling at " + p50);
        }
        // sub-millisecond medians wobble by more than 20% and are still steady within 0.1 ms
        int at = warmAt(open, new WarmupJudge.Second(1, 1000, 0.30, 0, 0, 0), new WarmupJudge.Second(1, 1000, 0.36, 0, 0, 0),
                new WarmupJudge.Second(1, 1000, 0.28, 0, 0, 0), new WarmupJudge.Second(1, 1000, 0.33, 0, 0, 0),
                new WarmupJudge.Second(1, 1000, 0.30, 0, 0, 0));
        assertEquals(5, at);
    }

    /** The closed model judges its trend on 20 s: five steady seconds are not enough, and it says why. */
    @Test
    void theClosedModelIsNotWarmBeforeItsTrendsTwentySeconds() {
        WarmupJudge judge = new WarmupJudge(false);
        for (int i = 0; i < 19; i++) {
            assertFalse(judge.warm(second(1000, 0, 0)), "warm after " + (i + 1) + " s");
        }
        assertEquals("19 s of warm-up, fewer than the 20 s its throughput's trend is judged on", judge.notWarmBecause());
        assertTrue(judge.warm(second(1000, 0, 0)));
    }

    @Test
    void notBeforeFiveSecondsOfWarmUp() {
        WarmupJudge judge = new WarmupJudge(true);
        // ten half-second intervals (a phase-change cut can be short): five of them are not five seconds
        for (int i = 0; i < 9; i++) {
            assertFalse(judge.warm(new WarmupJudge.Second(0.5, 1000, 0.5, 0, 0, 0)));
        }
        assertTrue(judge.warm(new WarmupJudge.Second(0.5, 1000, 0.5, 0, 0, 0)));
    }
}

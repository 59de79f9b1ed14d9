package perflab.experiment;

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

    @Test
    void steadyThroughputWithQuietCompilersIsWarmAfterFiveSeconds() {
        WarmupJudge judge = new WarmupJudge(false);
        int at = warmAt(judge, second(1000, 2, 1), second(1040, 2, 1), second(980, 3, 1), second(1010, 1, 1),
                second(1000, 0, 0), second(1000, 0, 0));
        assertEquals(5, at);
        assertNull(judge.notWarmBecause());
    }

    @Test
    void aBusySutCompilerKeepsItWarmingWhateverTheThroughput() {
        WarmupJudge judge = new WarmupJudge(false);
        assertEquals(-1, warmAt(judge, second(1000, 30, 0), second(1000, 30, 0), second(1000, 12, 0),
                second(1000, 0, 0), second(1000, 0, 0)));
        assertEquals("SUT JIT compiler at 30% of a core", judge.notWarmBecause());
        // the compiler's last busy second leaves the five-second window after five quiet ones
        assertEquals(3, warmAt(judge, second(1000, 0, 0), second(1000, 0, 0), second(1000, 0, 0)));
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

    @Test
    void notBeforeFiveSecondsOfWarmUp() {
        WarmupJudge judge = new WarmupJudge(false);
        // ten half-second intervals (a phase-change cut can be short): five of them are not five seconds
        for (int i = 0; i < 9; i++) {
            assertFalse(judge.warm(new WarmupJudge.Second(0.5, 1000, 0.5, 0, 0, 0)));
        }
        assertTrue(judge.warm(new WarmupJudge.Second(0.5, 1000, 0.5, 0, 0, 0)));
    }
}

package perflab.core.result;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SteadinessTest {
    @Test
    void flatThroughputIsSteady() {
        double[] flat = new double[60];
        for (int i = 0; i < flat.length; i++) {
            flat[i] = 1000 + (i % 2 == 0 ? 10 : -10);
        }
        RunSummary.Steadiness s = Steadiness.of(flat);
        assertTrue(s.steady());
        assertTrue(s.cv() < 0.02);
        assertEquals(0, s.trendPercentPerMin(), 1.0);
    }

    @Test
    void aRampIsNotSteady() {
        double[] ramp = new double[60];
        for (int i = 0; i < ramp.length; i++) {
            ramp[i] = 500 + 10 * i; // JIT warming up: +10 req/s every second
        }
        RunSummary.Steadiness s = Steadiness.of(ramp);
        assertFalse(s.steady());
        assertTrue(s.trendPercentPerMin() > 50, "trend " + s.trendPercentPerMin());
    }

    /** Seconds as measured here (soap-echo, 20 s): 5 % noise tilts the fitted slope past 5 %/min, not the window. */
    @Test
    void noiseThatTiltsTheSlopeOfAShortWindowIsStillSteady() {
        double[] window = {48011, 49151, 47342, 45963, 46166, 47783, 49668, 47753, 50166, 49572, 49492, 45297, 49316,
                48810, 48827, 46850, 51822, 49061, 45410, 49509};
        RunSummary.Steadiness s = Steadiness.of(window);
        assertTrue(Math.abs(s.trendPercentPerMin()) > 3, "a slope that noise alone gives: " + s);
        assertTrue(Math.abs(s.driftPercent()) < Steadiness.MAX_DRIFT_PERCENT, s.toString());
        assertTrue(s.steady(), s.toString());
    }

    @Test
    void aShortWindowThatClimbsIsNot() {
        double[] climb = new double[20];
        for (int i = 0; i < climb.length; i++) {
            climb[i] = 40_000 + 400 * i; // +19 % across the window
        }
        RunSummary.Steadiness s = Steadiness.of(climb);
        assertFalse(s.steady(), s.toString());
        assertEquals(100.0 * 400 * 19 / 43_800, s.driftPercent(), 0.01);
    }

    @Test
    void aNoisyRunIsNotSteady() {
        double[] noisy = new double[30];
        for (int i = 0; i < noisy.length; i++) {
            noisy[i] = i % 2 == 0 ? 500 : 1500;
        }
        assertFalse(Steadiness.of(noisy).steady());
    }

    @Test
    void tooShortToTell() {
        assertFalse(Steadiness.of(new double[]{1, 1}).steady());
    }

    /** Points unevenly spaced in time (the warm-up's intervals are not all a second): the line's change across them. */
    @Test
    void fittedChangeFollowsTheLineAcrossUnevenPoints() {
        // on the line y = 100 + 5x: +25 from x 0 to 5, over a mean of 111.67
        double change = Steadiness.fittedChange(new double[] {0, 2, 5}, new double[] {100, 110, 125});
        assertEquals(25 / (335 / 3.0), change, 1e-9);
        assertEquals(0, Steadiness.fittedChange(new double[] {3, 3}, new double[] {1, 2}), "no spread in x");
        assertEquals(0, Steadiness.fittedChange(new double[] {1}, new double[] {5}), "one point");
    }
}

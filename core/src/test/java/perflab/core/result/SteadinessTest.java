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
}

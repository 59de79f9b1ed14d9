package perflab.driver;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The saturation rule on figures the test sets, not on how a busy machine happens to schedule the driver. */
class DriverSaturationTest {

    private static Histogram lagMicros(int onTime, int late, long lateMicros) {
        Histogram h = new Histogram(LoopStats.DIGITS);
        h.recordValueWithCount(200, onTime);
        if (late > 0) {
            h.recordValueWithCount(lateMicros, late);
        }
        return h;
    }

    @Test
    void anOpenModelWhoseLagP99IsOverTenMillisecondsIsSaturated() {
        // 2% of sends 15 ms late: the p99 is 15 ms
        String reason = LoadDriver.saturation(true, 2, 0.5, 10, lagMicros(980, 20, 15_000));
        assertTrue(reason != null && reason.contains("send lag p99 15.0 ms"), reason);
        // 0.5% late: the p99 is on time
        assertNull(LoadDriver.saturation(true, 2, 0.5, 10, lagMicros(995, 5, 15_000)));
        // 9 ms is within the limit
        assertNull(LoadDriver.saturation(true, 2, 0.5, 10, lagMicros(900, 100, 9_000)));
    }

    @Test
    void theClosedModelHasNoScheduleToFallBehind() {
        assertNull(LoadDriver.saturation(false, 2, 0.5, 10, lagMicros(0, 100, 50_000)));
    }

    @Test
    void aDriverUsingOverNinetyPercentOfItsCoresIsSaturated() {
        String reason = LoadDriver.saturation(false, 2, 18.2, 10, new Histogram(LoopStats.DIGITS));
        assertTrue(reason != null && reason.contains("91% of the 2 cores"), reason);
        assertNull(LoadDriver.saturation(false, 2, 17.8, 10, new Histogram(LoopStats.DIGITS)));
        // a window under half a second is too short to judge the CPU share
        assertNull(LoadDriver.saturation(false, 2, 0.4, 0.2, new Histogram(LoopStats.DIGITS)));
    }
}

package perflab.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomInstantTest {
    @Test
    void theSameSeedGivesTheSameInstantAndSeedsSpreadOverTheMiddleOfTheWindow() {
        Duration window = Duration.ofSeconds(20);
        assertEquals(RandomInstant.in(window, 7), RandomInstant.in(window, 7));
        Set<Long> instants = new HashSet<>();
        long lowest = Long.MAX_VALUE;
        long highest = 0;
        for (long seed = 1; seed <= 200; seed++) {
            long ms = RandomInstant.in(window, seed).toMillis();
            assertTrue(ms >= 4_000 && ms <= 16_000, seed + ": " + ms);
            instants.add(ms);
            lowest = Math.min(lowest, ms);
            highest = Math.max(highest, ms);
        }
        assertTrue(instants.size() > 190, "distinct instants: " + instants.size());
        // uniform over 4-16 s: 200 draws reach near both ends
        assertTrue(lowest < 5_000 && highest > 15_000, lowest + " .. " + highest);
    }
}

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

    @Test
    void eachRepetitionOfAnExperimentDrawsItsOwnInstantTheFirstAsALoneRunWould() {
        RunConfig.Load load = new RunConfig.Load(4, 4.0, "constant", Duration.ofSeconds(20), 0, Duration.ofSeconds(3),
                0, Duration.ZERO, "1", Duration.ofSeconds(30), 7, 0, "http1", 1);
        RunConfig.Sut sut = new RunConfig.Sut(java.util.List.of(), null, null, null, null, 0, java.util.Map.of(), 2,
                RandomInstant.in(Duration.ofSeconds(20), 7));
        RunConfig run = new RunConfig("ring", "lean", "call", load, sut, null, null, null, false);
        assertEquals(sut.killInstanceAt(), RandomInstant.repetition(run, "random", 1).sut().killInstanceAt());
        assertEquals(RandomInstant.in(Duration.ofSeconds(20), 8), RandomInstant.repetition(run, "random", 2).sut()
                .killInstanceAt());
        assertEquals(null, RandomInstant.repetition(run, "8s", 2), "an instant given stays");
    }
}

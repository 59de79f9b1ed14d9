package perflab.experiment.study;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CapacitySearchTest {
    /** Runs the search against a system that passes a trial when {@code passes} says so; returns the trials. */
    private static List<CapacitySearch.Trial> search(CapacitySearch s, DoublePredicate passes) {
        List<CapacitySearch.Trial> trials = new ArrayList<>();
        for (OptionalDouble next = s.next(trials); next.isPresent(); next = s.next(trials)) {
            double r = next.getAsDouble();
            trials.add(new CapacitySearch.Trial(r, passes.test(r)));
            assertTrue(trials.size() <= 100, "the search must end");
        }
        return trials;
    }

    @Test
    void doublesUntilATrialFailsThenBisectsToTheResolutionAndConfirms() {
        CapacitySearch s = new CapacitySearch(50, Double.POSITIVE_INFINITY, 5, true, 16);
        List<CapacitySearch.Trial> trials = search(s, r -> r <= 730);
        assertEquals(List.of(50.0, 100.0, 200.0, 400.0, 800.0), trials.subList(0, 5).stream().map(CapacitySearch.Trial::rate).toList(),
                "up by doubling from the start");
        CapacitySearch.Outcome o = s.outcome(trials);
        assertTrue(o.capacity() <= 730 && o.capacity() >= 730 / 1.05, "within 5 % below the true capacity: " + o);
        assertTrue(o.firstFailed() > 730 && (o.firstFailed() - o.capacity()) <= 0.05 * o.capacity(), o.toString());
        assertTrue(o.confirmed(), "the capacity ran twice");
        assertEquals(o.capacity(), trials.get(trials.size() - 1).rate(), "the confirmation is the last trial");
        assertTrue(o.stopReason().contains("within 5%"), o.stopReason());
        assertTrue(trials.size() <= 11, "a doubling and a bisection, not a sweep: " + trials);
    }

    @Test
    void aConfirmationThatFailsLowersTheCeilingAndTheSearchGoesOnBelowIt() {
        CapacitySearch s = new CapacitySearch(100, Double.POSITIVE_INFINITY, 10, true, 16);
        int[] seen = new int[1];
        // 150 passes the first time and fails the second: a noisy edge
        List<CapacitySearch.Trial> trials = search(s, r -> r < 150 || (r == 150 && seen[0]++ == 0));
        CapacitySearch.Outcome o = s.outcome(trials);
        assertTrue(o.capacity() < 150, "a rate that failed once is not the capacity: " + o);
        assertEquals(150.0, o.firstFailed());
        assertTrue(o.confirmed(), o.toString());
    }

    @Test
    void whenEveryRateFailsItHalvesDownAndSaysNothingPassed() {
        CapacitySearch s = new CapacitySearch(10, Double.POSITIVE_INFINITY, 5, true, 100);
        List<CapacitySearch.Trial> trials = search(s, r -> false);
        CapacitySearch.Outcome o = s.outcome(trials);
        assertNull(o.capacity());
        assertTrue(o.firstFailed() < 2 * CapacitySearch.LOWEST_RATE, o.toString());
        assertTrue(o.stopReason().startsWith("no rate passed"), o.stopReason());
        assertFalse(o.confirmed());
    }

    @Test
    void theHighestRateAllowedPassingEndsTheSearchWithoutAFailure() {
        CapacitySearch s = new CapacitySearch(100, 500, 5, true, 16);
        List<CapacitySearch.Trial> trials = search(s, r -> true);
        assertEquals(List.of(100.0, 200.0, 400.0, 500.0, 500.0), trials.stream().map(CapacitySearch.Trial::rate).toList());
        CapacitySearch.Outcome o = s.outcome(trials);
        assertEquals(500.0, o.capacity());
        assertNull(o.firstFailed());
        assertTrue(o.stopReason().contains("highest rate allowed"), o.stopReason());
    }

    @Test
    void theTrialLimitEndsASearchThatHasNotConverged() {
        CapacitySearch s = new CapacitySearch(1, Double.POSITIVE_INFINITY, 0.1, false, 6);
        List<CapacitySearch.Trial> trials = search(s, r -> r <= 1_000);
        assertEquals(6, trials.size());
        assertEquals("the most trials, 6, were run", s.outcome(trials).stopReason());
        assertEquals(32.0, s.outcome(trials).capacity(), "the best known so far");
    }

    @Test
    void withoutConfirmationTheCapacityRunsOnceAndTheSameTrialsGiveTheSameNextRate() {
        CapacitySearch s = new CapacitySearch(50, Double.POSITIVE_INFINITY, 5, false, 16);
        List<CapacitySearch.Trial> trials = search(s, r -> r <= 333);
        assertFalse(s.outcome(trials).confirmed());
        assertEquals(1, trials.stream().filter(t -> t.rate() == s.outcome(trials).capacity()).count());
        // a resumed search: the same finished trials ask for the same rate
        List<CapacitySearch.Trial> firstThree = trials.subList(0, 3);
        assertEquals(s.next(firstThree), s.next(new ArrayList<>(firstThree)));
        assertEquals(trials.get(3).rate(), s.next(firstThree).getAsDouble());
    }

    @Test
    void midpointsAreRoundNumbersStrictlyInsideTheInterval() {
        assertEquals(450.0, CapacitySearch.round(448.4375, 100));
        assertEquals(38.0, CapacitySearch.round(37.5, 25), "to a unit a tenth of the width or finer");
        assertEquals(37.5, CapacitySearch.round(37.5, 5));
        double r = CapacitySearch.round(100.3, 0.4);
        assertTrue(r > 100.1 && r < 100.5, Double.toString(r));
        assertEquals("450", CapacitySearch.fmt(450));
        assertEquals("37.5", CapacitySearch.fmt(37.5));
        assertThrows(IllegalArgumentException.class, () -> new CapacitySearch(0, 10, 5, true, 16));
        assertThrows(IllegalArgumentException.class, () -> new CapacitySearch(100, 10, 5, true, 16));
    }
}

package perflab.driver;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class OpenModelScheduleTest {
    private static long countWithin(OpenModelSchedule s, long endNanos) {
        long n = 0;
        while (s.next() < endNanos) {
            s.advance();
            n++;
        }
        return n;
    }

    @Test
    void constantScheduleIsEvenlySpaced() {
        OpenModelSchedule s = new OpenModelSchedule(LoadSpec.Schedule.CONSTANT, 1000, 1, 0, 0);
        assertEquals(0, s.next());
        s.advance();
        assertEquals(1_000_000, s.next());
        assertEquals(9_999, countWithin(s, 10_000_000_000L));
    }

    @Test
    void poissonScheduleHasTheRateAndIsRepeatable() {
        long n = countWithin(new OpenModelSchedule(LoadSpec.Schedule.POISSON, 1000, 7, 0, 0), 100_000_000_000L);
        assertEquals(100_000, n, 1_500); // sd ~316
        assertEquals(n, countWithin(new OpenModelSchedule(LoadSpec.Schedule.POISSON, 1000, 7, 0, 0), 100_000_000_000L));
    }
}

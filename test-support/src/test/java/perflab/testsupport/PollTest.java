package perflab.testsupport;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PollTest {
    @Test
    void returnsTheFirstValueThatIsDoneAsSoonAsItIs() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        long start = System.nanoTime();
        int value = Poll.until("the fifth read", Duration.ofSeconds(30), reads::incrementAndGet, n -> n >= 5);
        assertEquals(5, value);
        assertEquals(5, reads.get(), "no read after the condition held");
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos(), "returned at once, not at the deadline");
    }

    @Test
    void failsAtTheDeadlineSayingWhatWasAwaitedAndTheLastValueSeen() {
        AtomicInteger reads = new AtomicInteger();
        long start = System.nanoTime();
        AssertionError e = assertThrows(AssertionError.class,
                () -> Poll.until("the count to reach 1000", Duration.ofMillis(300), reads::incrementAndGet, n -> n >= 1000));
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(waitedMs >= 300, "waited " + waitedMs + " ms");
        assertEquals("waited 300 ms for the count to reach 1000; last seen: " + reads.get(), e.getMessage());
    }

    @Test
    void aProbeThatThrowsIsNotYetAndItsExceptionIsReported() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        assertEquals("open", Poll.until("the port to open", Duration.ofSeconds(30), () -> {
            if (reads.incrementAndGet() < 3) {
                throw new IOException("connection refused");
            }
            return "open";
        }, "open"::equals));

        AssertionError e = assertThrows(AssertionError.class, () -> Poll.until("the port to open", Duration.ofMillis(50),
                () -> {
                    throw new IOException("connection refused");
                }));
        assertEquals("waited 50 ms for the port to open; last seen: java.io.IOException: connection refused", e.getMessage());
        assertTrue(e.getCause() instanceof IOException);
    }

    @Test
    void anAssertionFromTheProbeEndsTheWaitAtOnce() {
        long start = System.nanoTime();
        AssertionError e = assertThrows(AssertionError.class, () -> Poll.until("a line", Duration.ofSeconds(60),
                () -> {
                    throw new AssertionError("the process ended early");
                }, v -> true));
        assertEquals("the process ended early", e.getMessage());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(30).toNanos());
    }

    @Test
    void aConditionIsPolledUntilItHolds() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        Poll.until("the third look", Duration.ofSeconds(30), () -> reads.incrementAndGet() == 3);
        assertEquals(3, reads.get());
        AssertionError e = assertThrows(AssertionError.class, () -> Poll.until("never", Duration.ofMillis(20), () -> false));
        assertEquals("waited 20 ms for never; last seen: false", e.getMessage());
    }
}

package perflab.testsupport;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * Waits for a condition with a deadline, the one way tests here wait: a test that sleeps a fixed time and then
 * asserts a count fails on a busy machine (CI shares 2 CPUs with other load) and wastes time on a quiet one. The
 * deadline is a bound far above what the condition needs, not a guess at how long it takes; the poll returns as
 * soon as the condition holds. On the deadline it fails with an AssertionError that says what was awaited and the
 * last value seen, so a failure reads as the test's own assertion.
 *
 * <pre>{@code
 * Poll.until("the server to count 3 connections", Duration.ofSeconds(10), () -> server.connections() >= 3);
 * long n = Poll.until("3 reconnects", Duration.ofSeconds(10), reconnects::get, v -> v >= 3);
 * }</pre>
 */
public final class Poll {
    /** The first pause between probes; it doubles up to {@link #MAX_PAUSE_MS}, so a quick condition is seen quickly. */
    private static final long FIRST_PAUSE_MS = 5;
    private static final long MAX_PAUSE_MS = 100;

    private Poll() {
    }

    /** A value to look at, which may fail while the awaited state is not there yet (a port not yet open). */
    @FunctionalInterface
    public interface Probe<T> {
        T read() throws Exception;
    }

    /** A condition, which may fail while the awaited state is not there yet. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /**
     * Reads {@code probe} until {@code done} accepts its value and returns that value. A probe that throws an
     * Exception counts as "not yet" (its exception is the last value seen); one that throws an Error (an
     * AssertionError: what is awaited can no longer come, a process ended) ends the wait at once. Fails with an
     * AssertionError at the deadline.
     *
     * @param awaited what the test waits for, as the failure message should say it ("3 reconnects")
     */
    public static <T> T until(String awaited, Duration deadline, Probe<T> probe, Predicate<? super T> done)
            throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        long pause = FIRST_PAUSE_MS;
        Object last = "nothing read";
        while (true) {
            try {
                T value = probe.read();
                if (done.test(value)) {
                    return value;
                }
                last = value;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                last = e;
            }
            long left = end - System.nanoTime();
            if (left <= 0) {
                AssertionError failure = new AssertionError("waited " + seconds(deadline) + " for " + awaited
                        + "; last seen: " + last);
                if (last instanceof Throwable t) {
                    failure.initCause(t);
                }
                throw failure;
            }
            Thread.sleep(Math.min(pause, Math.max(1, left / 1_000_000)));
            pause = Math.min(MAX_PAUSE_MS, pause * 2);
        }
    }

    /** Waits until {@code condition} holds; a condition that throws counts as not holding (see the other form). */
    public static void until(String awaited, Duration deadline, Condition condition) throws InterruptedException {
        until(awaited, deadline, condition::holds, Boolean::booleanValue);
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}

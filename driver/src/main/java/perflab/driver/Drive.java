package perflab.driver;

/**
 * A run's load, whoever makes it: one {@link LoadDriver} in this JVM, or agents on other processes or machines
 * whose figures are merged into the same intervals and result. The run's orchestration sees only this.
 */
public interface Drive {
    /** Runs warm-up and the measured window; blocks until the window ends or {@link #stop} is called. */
    DriverResult run(IntervalListener listener) throws InterruptedException;

    /** Ends the run early from any thread; {@link #run} returns what was measured, marked with the reason. */
    void stop(String reason);

    /** Ends the run early because the user asked (Ctrl-C). */
    default void stop() {
        stop("interrupted");
    }

    /** Ends a timed warm-up at the next interval cut (the automatic warm-up found the system warm). */
    void endWarmup();
}

package perflab.driver;

/**
 * The intended send times of one event loop's open model: {@link OpenModelSchedule} at the run's request rate, or
 * {@link AgendaSchedule} when the traffic paces itself. Called on the loop's thread only.
 */
interface SendSchedule {
    /** The intended send time of the next request (System.nanoTime scale); Long.MAX_VALUE if none is known yet. */
    long next();

    /** The request {@link #next()} named is released into the loop's backlog. */
    void advance();

    /** The oldest released request was dropped unsent (it waited the timeout for a free connection). */
    default void expired() {
    }

    /**
     * The longest the loop may sleep before looking again: a schedule whose future can change between ticks (a
     * step scheduled as a response arrives) needs a short bound, a rate schedule none.
     */
    default long maxSleepNanos() {
        return Long.MAX_VALUE;
    }
}

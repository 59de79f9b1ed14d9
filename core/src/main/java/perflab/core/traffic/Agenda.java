package perflab.core.traffic;

/**
 * The send times of traffic that paces itself: requests due when its users need them (a user arriving, the next
 * step of a user once the previous answered, a step a hold after another), not at the driver's request rate. The
 * driver's open model then sends at the agenda's times instead of its own schedule, and latency counts from them
 * as ever (no coordinated omission: a step sent late shows its lateness).
 *
 * <p>The driver releases due steps in order of their due time; the sessions' {@link ClientSession#next()} sends
 * them in release order (the oldest released step first), so each send time the driver records belongs to the
 * step sent for it. An agenda is used on one event loop's thread only: traffic with an agenda runs on one loop.
 */
public interface Agenda {
    /** Told once, when the drive starts (the {@code System.nanoTime()} arrivals count from). */
    void start(long startNanos);

    /** When the earliest unreleased step is due ({@code System.nanoTime()} scale); {@code Long.MAX_VALUE} if none. */
    long nextDue();

    /** Releases the step {@link #nextDue()} named: the sessions send it next. */
    void release();

    /** The oldest released step will not be sent (it waited the request timeout for a free connection): drop it. */
    void expired();
}

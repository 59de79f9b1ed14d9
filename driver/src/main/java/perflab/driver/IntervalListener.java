package perflab.driver;

/** Receives the driver's per-second intervals, on a thread that is not an event loop. */
@FunctionalInterface
public interface IntervalListener {
    void onInterval(Interval interval);
}

package perflab.voicemail;

import perflab.core.traffic.Agenda;

import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * When the users' browsers act (the open model): users arrive at the run's rate, each opens its page at once, clicks
 * as soon as the page answered and, for a {@code web} user, hangs up a hold after the click answered. Users are
 * taken from this process's {@link UserRange} in arrival order. Used on the driver's one event loop only.
 */
final class UserAgenda implements Agenda {
    private final UserRange users;
    private final double meanGapNanos;
    private final SplittableRandom random; // null: evenly spaced arrivals
    private final PriorityQueue<BrowserStep> later = new PriorityQueue<>();
    private final ArrayDeque<BrowserStep> released = new ArrayDeque<>();
    private long startNanos;
    private double nextArrivalOffsetNanos;
    private long arrivals;
    private long dropped;

    UserAgenda(UserRange users, double arrivalsPerSecond, boolean poisson, long seed) {
        if (!(arrivalsPerSecond > 0)) {
            throw new IllegalArgumentException("voicemail needs new users per second above 0 (--rate)");
        }
        this.users = users;
        this.meanGapNanos = 1e9 / arrivalsPerSecond;
        this.random = poisson ? new SplittableRandom(seed) : null;
        this.nextArrivalOffsetNanos = poisson ? gap() : 0;
    }

    @Override
    public void start(long start) {
        this.startNanos = start;
    }

    private long nextArrival() {
        return startNanos + (long) nextArrivalOffsetNanos;
    }

    @Override
    public long nextDue() {
        long arrival = nextArrival();
        return later.isEmpty() ? arrival : Math.min(arrival, later.peek().dueNanos());
    }

    @Override
    public void release() {
        long arrival = nextArrival();
        if (!later.isEmpty() && later.peek().dueNanos() <= arrival) {
            released.addLast(later.poll());
            return;
        }
        released.addLast(new BrowserStep(arrival, BrowserStep.Kind.PAGE, new Visit(users.user(arrivals++))));
        nextArrivalOffsetNanos += random == null ? meanGapNanos : gap();
    }

    @Override
    public void expired() {
        released.pollFirst();
        dropped++;
    }

    /** The oldest released step: what a free browser sends now. */
    BrowserStep take() {
        BrowserStep step = released.pollFirst();
        if (step == null) {
            throw new IllegalStateException("a request was sent with no step released for it");
        }
        return step;
    }

    /** A user's next step, due at {@code dueNanos}. */
    void schedule(BrowserStep step) {
        later.add(step);
    }

    /** Users who arrived so far. */
    long arrivals() {
        return arrivals;
    }

    /** Steps that waited the request timeout for a free connection and were not sent. */
    long dropped() {
        return dropped;
    }

    private double gap() {
        return -Math.log(1.0 - random.nextDouble()) * meanGapNanos;
    }
}

package perflab.driver;

import perflab.core.traffic.ErrorKind;

import java.util.ArrayDeque;

/**
 * The open model on one event loop: a tick releases the requests whose intended send time has come into a
 * backlog, and free connections take them oldest first. Latency counts from the intended time, so a server
 * stall shows in full (no coordinated omission); the wait for a free connection is queueing, not lag.
 *
 * <p>Memory is bounded: a due request that has waited in the backlog for longer than the request timeout
 * fails as {@link ErrorKind#TIMEOUT} without being sent (its latency already exceeds the timeout), and if
 * the backlog still reaches {@link RequestBacklog#LIMIT} entries the oldest one fails the same way to make
 * room. Both are counted like any other timeout, with latency from the intended time.
 */
final class OpenModel implements LoadModel {
    /**
     * The tick sleeps at least this long: at high rates requests are released in batches of up to 1 ms
     * (which shows as lag), at low rates the tick wakes at the next intended time.
     */
    static final long MIN_TICK_NANOS = 1_000_000;

    private final MeasurementWindow window;
    private final LoopStats stats;
    private final SendSchedule schedule;
    private final long timeoutNanos;
    private final RequestBacklog backlog = new RequestBacklog();
    private final ArrayDeque<Client> free = new ArrayDeque<>();
    private final String expiredMessage;
    /** The kind index of a request the traffic never chose (see {@link RequestKinds#NONE}). */
    private final int noKind;

    OpenModel(MeasurementWindow window, LoopStats stats, SendSchedule schedule, long timeoutNanos, int noKind) {
        this.window = window;
        this.noKind = noKind;
        this.stats = stats;
        this.schedule = schedule;
        this.timeoutNanos = timeoutNanos;
        this.expiredMessage = "a scheduled request waited " + timeoutNanos / 1_000_000
                + " ms (the timeout) for a free connection and was not sent";
    }

    @Override
    public void clientReady(Client client, long nowNanos) {
        if (!window.sending()) {
            return;
        }
        release(nowNanos); // a step the response just handled made due (a user's next page) goes out on this client
        expire(nowNanos);
        if (!backlog.isEmpty()) {
            client.send(backlog.pollOldest(), nowNanos);
        } else if (!client.inFreeQueue) {
            client.inFreeQueue = true;
            client.freeSinceNanos = nowNanos;
            free.addLast(client);
        }
    }

    @Override
    public void connectFailed(Client client, long nowNanos, String message) {
        // One due request fails per failed connect attempt; the rest wait for connections that do open.
        if (!backlog.isEmpty()) {
            client.failUnsent(ErrorKind.CONNECT, backlog.pollOldest(), message);
        }
    }

    @Override
    public long tick(long nowNanos) {
        if (!window.sending()) {
            backlog.clear();
            free.clear();
            return Long.MAX_VALUE;
        }
        release(nowNanos);
        expire(nowNanos);
        while (!backlog.isEmpty() && !free.isEmpty()) {
            Client client = free.pollFirst();
            client.inFreeQueue = false;
            if (client.idle()) {
                client.send(backlog.pollOldest(), client.freeSinceNanos);
            }
        }
        long next = schedule.next();
        return Math.max(MIN_TICK_NANOS, Math.min(schedule.maxSleepNanos(),
                next == Long.MAX_VALUE ? Long.MAX_VALUE : next - nowNanos));
    }

    /** Moves every request whose intended time has come into the backlog. */
    private void release(long nowNanos) {
        for (long next = schedule.next(); next <= nowNanos; next = schedule.next()) {
            if (backlog.isFull()) {
                expireOldest(nowNanos);
            }
            backlog.add(next);
            schedule.advance();
        }
    }

    @Override
    public boolean open() {
        return true;
    }

    @Override
    public boolean waitingBeforeEnd() {
        return !backlog.isEmpty() && window.beforeEnd(backlog.peekOldest()); // oldest first
    }

    @Override
    public void failWaiting(long nowNanos) {
        while (!backlog.isEmpty()) {
            expireOldest(nowNanos); // the window's own are counted (with their wait), the later ones are not
        }
    }

    private void expire(long nowNanos) {
        while (!backlog.isEmpty() && nowNanos - backlog.peekOldest() >= timeoutNanos) {
            expireOldest(nowNanos);
        }
    }

    private void expireOldest(long nowNanos) {
        long intended = backlog.pollOldest();
        schedule.expired();
        int phase = window.completionPhase(intended);
        stats.failure(phase, noKind, ErrorKind.TIMEOUT, nowNanos - intended);
        window.sampleError(phase, ErrorKind.TIMEOUT, expiredMessage);
    }
}

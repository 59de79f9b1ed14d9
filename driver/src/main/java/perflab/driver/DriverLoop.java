package perflab.driver;

import io.netty.channel.EventLoop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One Netty event loop's share of the load: its connections and their clients, statistics, encoded requests and load model, plus
 * one periodic task that releases open-model requests and scans for timed-out requests. A periodic scan
 * instead of a timer per request keeps the hot path free of scheduling (a timeout is detected within
 * {@code timeout / 10}, at most 100 ms, late).
 */
final class DriverLoop implements Runnable {
    private static final long MIN_SLEEP_NANOS = 100_000;

    final EventLoop eventLoop;
    final MeasurementWindow window;
    final LoopStats stats;
    final RequestKinds kinds;
    final EncodedRequest.Cache encoded;
    final List<Client> clients = new ArrayList<>();
    final List<DriverConnection> connections = new ArrayList<>();
    final long timeoutNanos;
    final String timeoutMessage;
    LoadModel model;
    private final long scanPeriodNanos;
    private long nextScanNanos;
    private boolean shutdown;

    DriverLoop(EventLoop eventLoop, MeasurementWindow window, String hostHeader, long timeoutNanos, RequestKinds kinds) {
        this.eventLoop = eventLoop;
        this.window = window;
        this.kinds = kinds;
        this.stats = new LoopStats(kinds.size());
        this.encoded = new EncodedRequest.Cache(hostHeader, kinds);
        this.timeoutNanos = timeoutNanos;
        this.timeoutMessage = "no complete response within " + timeoutNanos / 1_000_000 + " ms";
        this.scanPeriodNanos = Math.max(1_000_000, Math.min(timeoutNanos / 10, 100_000_000));
    }

    /** Connects every client and starts the periodic task. */
    void start() {
        eventLoop.execute(() -> {
            nextScanNanos = System.nanoTime() + scanPeriodNanos;
            for (DriverConnection c : connections) {
                c.connect();
            }
            run();
        });
    }

    @Override
    public void run() {
        if (shutdown) {
            return;
        }
        long now = System.nanoTime();
        long sleep = model.tick(now);
        if (now >= nextScanNanos) {
            for (int i = 0; i < connections.size(); i++) {
                connections.get(i).checkTimeouts(now);
            }
            nextScanNanos = now + scanPeriodNanos;
        }
        sleep = Math.max(MIN_SLEEP_NANOS, Math.min(sleep, nextScanNanos - now));
        eventLoop.schedule(this, sleep, TimeUnit.NANOSECONDS);
    }

    /** Requests awaiting a response. Call on the loop. */
    int inFlight() {
        int n = 0;
        for (Client c : clients) {
            if (c.busy()) {
                n++;
            }
        }
        return n;
    }

    /**
     * Open model, while the window drains: whether a request meant for before the window's end is still waiting for
     * a connection or for its answer. Call on the loop.
     */
    boolean windowOutstanding() {
        if (model.waitingBeforeEnd()) {
            return true;
        }
        for (Client c : clients) {
            if (c.busy() && c.request != null && window.beforeEnd(c.intendedNanos)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The open window's drain is over: what is still outstanding fails as a timeout now, with its wait from its
     * intended start (the window's own are counted; requests meant for after the window are not). Call on the loop.
     */
    void failOutstanding() {
        long now = System.nanoTime();
        model.failWaiting(now);
        for (int i = 0; i < connections.size(); i++) {
            connections.get(i).checkTimeouts(now + timeoutNanos); // as if each one's timeout had passed
        }
    }

    /** Closes every connection and stops the periodic task. Call on the loop. */
    void shutdown() {
        shutdown = true;
        for (DriverConnection c : connections) {
            c.shutdown();
        }
    }
}

package perflab.driver;

import perflab.core.traffic.ErrorKind;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which phase the run is in, shared by the event loops and the controlling thread. A completion's phase is
 * decided when it completes: warm-up completions are reported but not measured, measured ones count, and
 * those after the window's end are dropped. Count-bounded phases hand out tickets from an atomic counter so
 * that a window of N requests holds exactly N completions whichever loop completes them.
 *
 * <p>In the open model the window also holds only requests meant to be sent in it: one whose intended start lies
 * before the window's start is dropped when it completes inside it, like one completing after the end. Otherwise
 * the backlog of a warm-up that fell behind (a still-compiling SUT, a busy machine) would complete in the
 * window's first second and be counted as throughput the schedule never offered in it: 417 req/s measured for
 * 400 offered, with the warm-up 0.47 s behind. The closed model keeps counting by completion, since its requests
 * in flight at the start balance those dropped at the end.
 *
 * <p>For the same reason the open model's window holds every request meant to be sent in it, also those that
 * complete after its end: the window ends into {@link #DRAIN}, and the driver waits until each of them has an answer
 * or has timed out. A window that dropped them read, past the server's capacity, 0 requests, 0 errors and a p99 of
 * 0: every completion in it belonged to the backlog from before it, and every request of its own completed after it.
 */
final class MeasurementWindow {
    static final int WARMUP = 0;
    static final int MEASURE = 1;
    /**
     * Open model, after a window ended by its time: the schedule goes on sending (the server stays under the load it
     * had) while the window's own requests still waiting or in flight finish; their completions are the window's.
     */
    static final int DRAIN = 2;
    static final int DONE = 3;

    static final int MAX_ERROR_SAMPLES = 10;
    /**
     * The warm-up deep-checks its first answers (a broken server shows at once), then samples as the window does:
     * a warm-up that deep-checked every answer would warm a costlier path than the one measured, and bind a fast
     * SUT's warm-up to the driver (soap-echo lean: 15-19k req/s in such a warm-up, 44-50k in the window).
     */
    static final int WARMUP_DEEP_CHECKS = 1000;

    private volatile int phase;
    private volatile boolean stopped;
    private volatile String endReason;
    private final AtomicLong warmupLeft;
    private final AtomicLong measureLeft;
    private final boolean warmupByCount;
    private final boolean measureByCount;
    /** By phase (WARMUP, MEASURE): whether it ends on a count. */
    private final boolean[] byCount;
    /** Open model: a completion whose request was meant for before the window is not the window's. */
    private final boolean byIntendedStart;
    /**
     * Requests meant to start before this are not the window's: far in the past until the window starts (2^62 ns,
     * 146 years, so that differences of nanoTime values cannot overflow), then the window's start. One comparison in
     * warm-up and window alike, so the phase change does not change the code's shape (see LoopStats).
     */
    private volatile long countsFromNanos = System.nanoTime() - (1L << 62);
    /** Open model: requests meant to start at or after this are not the window's: far ahead until the window ends. */
    private volatile long countsUntilNanos = System.nanoTime() + (1L << 62);
    private final CountDownLatch measureStarted = new CountDownLatch(1);
    private final CountDownLatch measureEnded = new CountDownLatch(1);
    private volatile long measureStartNanos;
    private volatile long measureStartEpochMs;
    private volatile long measureEndNanos;
    private volatile long measureEndEpochMs;
    private final AtomicInteger errorSampleCount = new AtomicInteger();
    private final AtomicInteger warmupDeepChecksLeft = new AtomicInteger(WARMUP_DEEP_CHECKS);
    private final List<String> errorSamples = new ArrayList<>();

    MeasurementWindow(long warmupRequests, long measuredRequests) {
        this(warmupRequests, measuredRequests, false);
    }

    MeasurementWindow(long warmupRequests, long measuredRequests, boolean byIntendedStart) {
        this.byIntendedStart = byIntendedStart;
        this.warmupByCount = warmupRequests > 0;
        this.measureByCount = measuredRequests > 0;
        this.warmupLeft = new AtomicLong(warmupRequests);
        this.measureLeft = new AtomicLong(measuredRequests);
        this.byCount = new boolean[] {warmupByCount, measureByCount};
    }

    int phase() {
        return phase;
    }

    /** Whether clients should start new requests. */
    boolean sending() {
        return phase != DONE;
    }

    /** Open model: whether a request meant to start at {@code intendedNanos} was meant for before the window's end. */
    boolean beforeEnd(long intendedNanos) {
        return intendedNanos - countsUntilNanos < 0;
    }

    /**
     * The phase a completion (success or error) of a request meant to start at {@code intendedNanos} belongs to,
     * taking a ticket when the phase is count-bounded. The completion that takes the last warm-up ticket starts the
     * measured window; the one that takes the last measured ticket ends it.
     */
    int completionPhase(long intendedNanos) {
        int p = phase; // read once, before the window's bounds (which are written before the phase)
        if (byIntendedStart) {
            if (p == DONE || p >= MEASURE && intendedNanos - countsFromNanos < 0
                    || intendedNanos - countsUntilNanos >= 0) {
                return DONE; // the warm-up's backlog, before any ticket is taken; or meant for after the window
            }
            if (p == DRAIN) {
                return MEASURE; // one of the window's own, finishing after its end
            }
        }
        // a phase bounded by time takes this one path in warm-up and window alike (see LoopStats on why)
        if (p == DONE || !byCount[p]) {
            return p;
        }
        return ticket(p);
    }

    /** A completion in a count-bounded phase: its ticket, and the phase change that the last ticket makes. */
    private int ticket(int p) {
        if (p == WARMUP) {
            long left = warmupLeft.decrementAndGet();
            if (left == 0) {
                startMeasure();
            }
            if (left >= 0) {
                return WARMUP;
            }
            // a completion on another loop that raced the switch: the warm-up's count is already full, and its
            // request was in flight when the window started
            if (byIntendedStart) {
                return DONE;
            }
            p = MEASURE;
        }
        if (p == MEASURE && measureByCount) {
            long left = measureLeft.decrementAndGet();
            if (left < 0) {
                return DONE;
            }
            if (left == 0) {
                endMeasure("completed");
            }
        }
        return p;
    }

    synchronized void begin(boolean warmup) {
        if (phase == DONE) {
            return; // stopped before the run began
        }
        if (warmup) {
            phase = WARMUP;
        } else {
            startMeasure();
        }
    }

    synchronized void startMeasure() {
        if (phase != WARMUP) {
            return;
        }
        measureStartEpochMs = System.currentTimeMillis();
        measureStartNanos = System.nanoTime();
        countsFromNanos = measureStartNanos;
        phase = MEASURE; // published after the start time, so a loop that sees MEASURE sees the start
        measureStarted.countDown();
    }

    /**
     * Open model: ends the window by its time and goes on sending while its requests finish ({@link #DRAIN});
     * {@link #endDrain} ends the run. Any other model or a count-bounded window ends at once.
     */
    synchronized void endMeasureAndDrain(String reason) {
        if (!byIntendedStart || measureByCount || phase != MEASURE) {
            endMeasure(reason);
            return;
        }
        measureEndEpochMs = System.currentTimeMillis();
        measureEndNanos = System.nanoTime();
        countsUntilNanos = measureEndNanos; // before the phase, so a loop that sees DRAIN sees the end
        endReason = reason;
        phase = DRAIN;
        measureEnded.countDown();
    }

    /** The window's requests have finished (or the drain's time is up): the run is over. */
    synchronized void endDrain() {
        if (phase == DRAIN) {
            phase = DONE;
        }
    }

    boolean draining() {
        return phase == DRAIN;
    }

    synchronized void endMeasure(String reason) {
        if (phase == DRAIN) {
            phase = DONE; // stopped while draining: the window's end stays where it was
            return;
        }
        if (phase == DONE) {
            return;
        }
        if (measureStartNanos == 0) {
            // Stopped during warm-up: an empty measured window at the stop time.
            measureStartEpochMs = System.currentTimeMillis();
            measureStartNanos = System.nanoTime();
        }
        measureEndEpochMs = System.currentTimeMillis();
        measureEndNanos = System.nanoTime();
        endReason = reason;
        phase = DONE;
        measureStarted.countDown();
        measureEnded.countDown();
    }

    /** Ends the run early from any thread. */
    void stop(String reason) {
        stopped = true;
        endMeasure(reason);
    }

    boolean stopped() {
        return stopped;
    }

    /** Waits for the measured window to start (count-bounded warm-up) or the run to stop. */
    void awaitMeasureStart() throws InterruptedException {
        measureStarted.await();
    }

    /** Waits up to {@code nanos} for the window to start (or the run to stop); returns true if it did. */
    boolean awaitMeasureStart(long nanos) throws InterruptedException {
        return measureStarted.await(nanos, TimeUnit.NANOSECONDS);
    }

    /** Starts the window now if the warm-up is timed (a count-bounded one ends on its own count). */
    void endTimedWarmup() {
        if (!warmupByCount) {
            startMeasure();
        }
    }

    /** Waits up to {@code nanos} for the window to end (count reached or stop); returns true if it ended. */
    boolean awaitMeasureEnd(long nanos) throws InterruptedException {
        return measureEnded.await(nanos, TimeUnit.NANOSECONDS);
    }

    void awaitMeasureEnd() throws InterruptedException {
        measureEnded.await();
    }

    long measureStartNanos() {
        return measureStartNanos;
    }

    long measureStartEpochMs() {
        return measureStartEpochMs;
    }

    long measureEndNanos() {
        return measureEndNanos;
    }

    long measureEndEpochMs() {
        return measureEndEpochMs;
    }

    String endReason() {
        return endReason;
    }

    /** Whether a completion of {@code phase} is among the warm-up's first {@value #WARMUP_DEEP_CHECKS}, all deep-checked. */
    boolean takeWarmupDeepCheck(int phase) {
        // the count first: once used up (the warm-up's first 1,000 answers), warm-up and window alike stop at this
        // volatile read, so the code does not change shape at the phase change (see LoopStats)
        return warmupDeepChecksLeft.get() > 0 && phase == WARMUP && warmupDeepChecksLeft.getAndDecrement() > 0;
    }

    /** Whether an error message would still be kept (so callers build messages only while it is). */
    boolean wantsErrorSamples() {
        return errorSampleCount.get() < MAX_ERROR_SAMPLES;
    }

    /** Keeps the first few error messages; after that, costs one atomic read. */
    void sampleError(int phase, ErrorKind kind, String message) {
        if (phase > MEASURE || errorSampleCount.get() >= MAX_ERROR_SAMPLES) {
            return;
        }
        if (errorSampleCount.incrementAndGet() <= MAX_ERROR_SAMPLES) {
            String text = (phase == WARMUP ? "warmup " : "") + kind.jsonName() + ": " + message;
            synchronized (errorSamples) {
                errorSamples.add(text);
            }
        }
    }

    List<String> errorSamples() {
        synchronized (errorSamples) {
            return List.copyOf(errorSamples);
        }
    }
}

package perflab.driver;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import perflab.core.traffic.ErrorKind;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The once-a-second thread (not an event loop, so a slow listener cannot delay requests): swaps every loop's
 * recorders, merges them into copies the listener owns, and reports an {@link Interval}. Each completion is
 * recorded in its own phase's recorders, so the cut at the phase change (made when this thread wakes, a moment
 * after the change) reports the warm-up's last interval up to the window's start, each interval holding exactly
 * its own phase's completions. At the phase change and at the end the cut first waits until every loop has
 * finished the completion it was in, so none is recorded after the cut: the measured intervals add up exactly to
 * the run's totals.
 *
 * <p>No interval is a sliver of a period at the phase change. The window's first interval runs from its start to
 * the next regular cut, not to the moment this thread noticed the change (a few milliseconds, whose rate read as
 * 20,000-240,000 req/s in timeseries.csv); and a warm-up ended by {@link #endWarmupAtNextCut} (the automatic
 * warm-up, which decides on a tick's interval, so just after a tick) ends at the next tick, not a few
 * milliseconds into the period.
 */
final class IntervalTicker implements Runnable {
    static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long BARRIER_TIMEOUT_SECONDS = 10;

    private final long periodNanos;
    private final List<DriverLoop> loops;
    private final MeasurementWindow window;
    private final IntervalListener listener;
    /** Histograms handed back by the recorders, per loop, phase and figure (unused, service, failed, lag). */
    private final Histogram[][][] recycled;
    private final long[][][] lastCounters;
    /** Per loop, phase and kind: the kind's latency histogram handed back, and its counters at the last cut. */
    private final Histogram[][][] recycledKind;
    private final long[][][][] lastKindCounters;
    private final RequestKinds kinds;
    private final Thread thread;
    private boolean cutRequested;
    private boolean finishRequested;
    /** The warm-up ends at the next regular cut (set from any thread; the listener runs on this one). */
    private volatile boolean endWarmupRequested;
    private long warmupEndNanos;
    private boolean listenerFailed;

    /** The phase of the intervals reported so far: WARMUP, MEASURE, or DONE once the last one went out. */
    private int reportedPhase;
    private long intervalStartEpochMs;
    private long phaseStartNanos;

    /** {@code periodNanos}: {@link #PERIOD_NANOS} but in tests that want many cuts. */
    IntervalTicker(List<DriverLoop> loops, MeasurementWindow window, IntervalListener listener, long periodNanos,
                   RequestKinds kinds) {
        this.kinds = kinds;
        this.recycledKind = new Histogram[loops.size()][2][kinds.size()];
        this.lastKindCounters = new long[loops.size()][2][kinds.size()][LoopStats.KIND_COUNTERS];
        this.periodNanos = periodNanos;
        this.loops = loops;
        this.window = window;
        this.listener = listener;
        this.recycled = new Histogram[loops.size()][2][4];
        this.lastCounters = new long[loops.size()][2][LoopStats.COUNTERS];
        this.thread = new Thread(this, "perflab-driver-ticker");
        this.thread.setDaemon(true);
    }

    /**
     * @param warmupEndNanos when a warm-up by time is up ({@link System#nanoTime}), 0 for none: the window starts at
     *                       a cut made then, the regular cut nearest to it moved onto it
     */
    void start(long warmupEndNanos) {
        this.warmupEndNanos = warmupEndNanos;
        reportedPhase = window.phase();
        intervalStartEpochMs = System.currentTimeMillis();
        phaseStartNanos = System.nanoTime();
        thread.start();
    }

    /**
     * Ends a timed warm-up at the next regular cut rather than now: the warm-up's last interval and the window's
     * first are then whole periods.
     */
    void endWarmupAtNextCut() {
        endWarmupRequested = true;
    }

    /** The phase changed: cut the current interval now, unless a cut already did. */
    synchronized void phaseChanged() {
        cutRequested = true;
        notifyAll();
    }

    /** Cuts the last interval and ends the thread; returns when it has. */
    void finish() throws InterruptedException {
        synchronized (this) {
            finishRequested = true;
            notifyAll();
        }
        thread.join(TimeUnit.SECONDS.toMillis(10));
    }

    @Override
    public void run() {
        long nextCut = System.nanoTime() + periodNanos;
        while (true) {
            // the warm-up's end takes the place of the regular cut nearest to it (or of the next one, when it comes
            // first): both phases keep intervals of about a period or more
            boolean warmupDue = warmupEndNanos != 0 && reportedPhase == MeasurementWindow.WARMUP
                    && warmupEndNanos - nextCut <= periodNanos / 2;
            long due = warmupDue ? warmupEndNanos : nextCut;
            boolean finishing;
            boolean onTime;
            synchronized (this) {
                long wait;
                while (!finishRequested && !cutRequested && (wait = due - System.nanoTime()) > 0) {
                    try {
                        TimeUnit.NANOSECONDS.timedWait(this, wait);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                finishing = finishRequested;
                onTime = !finishing && !cutRequested;
                cutRequested = false;
            }
            if (onTime && (warmupDue || endWarmupRequested)) {
                endWarmupRequested = false;
                window.endTimedWarmup(); // the window starts at this cut
            }
            if (!finishing && !onTime && window.phase() == reportedPhase) {
                continue; // asked to cut for a phase change that an earlier cut already reported
            }
            long now = cut(finishing);
            if (finishing) {
                return;
            }
            nextCut = now + periodNanos;
        }
    }

    private long cut(boolean finishing) {
        int current = window.phase();
        if (finishing || current != reportedPhase) {
            awaitLoops(); // a completion whose phase was taken before now is recorded before the recorders are read
        }
        long endEpochMs = System.currentTimeMillis();
        long nowNanos = System.nanoTime();
        if (reportedPhase == MeasurementWindow.WARMUP) {
            boolean ended = current != MeasurementWindow.WARMUP;
            long end = ended ? Math.min(endEpochMs, window.measureStartEpochMs()) : endEpochMs;
            report(MeasurementWindow.WARMUP, intervalStartEpochMs, end, nowNanos);
            if (!ended) {
                intervalStartEpochMs = endEpochMs;
                return nowNanos;
            }
            reportedPhase = MeasurementWindow.MEASURE;
            intervalStartEpochMs = end;
            phaseStartNanos = window.measureStartNanos();
            if (current == MeasurementWindow.MEASURE && !finishing) {
                return nowNanos; // the window's first interval goes on to the next cut: now it would be a sliver
            }
        }
        if (current == MeasurementWindow.DRAIN && !finishing) {
            // the window's last interval waits for its requests still outstanding at its end, and reports them
            return nowNanos;
        }
        if (reportedPhase == MeasurementWindow.MEASURE && current != MeasurementWindow.WARMUP) {
            boolean ended = current >= MeasurementWindow.DRAIN;
            long end = ended ? Math.min(endEpochMs, Math.max(intervalStartEpochMs, window.measureEndEpochMs())) : endEpochMs;
            // an open-model window's last interval is reported after its drain, but ends at the window's end
            report(MeasurementWindow.MEASURE, intervalStartEpochMs, end,
                    ended ? Math.min(nowNanos, Math.max(phaseStartNanos, window.measureEndNanos())) : nowNanos);
            if (ended) {
                reportedPhase = MeasurementWindow.DONE;
            }
        }
        intervalStartEpochMs = endEpochMs;
        return nowNanos;
    }

    /** Drains one phase's recorders and counters and reports them, unless the interval is empty and has no length. */
    private void report(int phase, long startEpochMs, long endEpochMs, long nowNanos) {
        Histogram service = new Histogram(LoopStats.DIGITS);
        Histogram failed = new Histogram(LoopStats.DIGITS);
        Histogram lag = new Histogram(LoopStats.DIGITS);
        long[] sums = new long[LoopStats.COUNTERS];
        for (int i = 0; i < loops.size(); i++) {
            LoopStats.PhaseStats r = loops.get(i).stats.phases[phase];
            service.add(drain(r.serviceTime, i, phase, 1));
            failed.add(drain(r.failed, i, phase, 2));
            lag.add(drain(r.lag, i, phase, 3));
            for (int c = 0; c < LoopStats.COUNTERS; c++) {
                long v = r.counters.get(c);
                sums[c] += v - lastCounters[i][phase][c];
                lastCounters[i][phase][c] = v;
            }
        }
        // successes, errors and latency are the kinds' sums (the kinds are their only record)
        Histogram latency = new Histogram(LoopStats.DIGITS);
        long[] kindSums = new long[LoopStats.KIND_COUNTERS];
        Map<String, KindFigures> byKind = byKind(phase, latency, kindSums);
        // empty of everything: a completion drained between the figures (its service time with the next cut, its
        // success with this one) leaves the next interval service time alone, which must not be dropped
        boolean empty = latency.getTotalCount() == 0 && failed.getTotalCount() == 0 && service.getTotalCount() == 0
                && lag.getTotalCount() == 0 && java.util.Arrays.stream(kindSums).allMatch(v -> v == 0)
                && java.util.Arrays.stream(sums).allMatch(v -> v == 0);
        if (endEpochMs <= startEpochMs && empty) {
            return;
        }
        Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, kindSums[LoopStats.ERRORS + k.ordinal()]);
        }
        Interval interval = new Interval(phase == MeasurementWindow.WARMUP ? Phase.WARMUP : Phase.MEASURE,
                startEpochMs, Math.max(startEpochMs, endEpochMs), Math.max(0, nowNanos - phaseStartNanos) / 1e9,
                kindSums[LoopStats.SUCCESSES], errors, latency, service, failed, lag, sums[LoopStats.BYTES_SENT],
                sums[LoopStats.BYTES_RECEIVED], byKind);
        try {
            listener.onInterval(interval);
        } catch (RuntimeException e) {
            if (!listenerFailed) {
                listenerFailed = true; // once: a broken listener must not stop the run or flood the console
                System.err.println("perflab driver: the interval listener failed: " + e);
            }
        }
    }

    /**
     * Drains one phase's per-kind recorders and counters, adding them into {@code latency} and {@code sums} too;
     * kinds without requests in the interval are left out of the map.
     */
    private Map<String, KindFigures> byKind(int phase, Histogram allLatency, long[] allSums) {
        Map<String, KindFigures> byKind = new LinkedHashMap<>();
        for (int k = 0; k < kinds.size(); k++) {
            Histogram latency = new Histogram(LoopStats.DIGITS);
            long[] sums = new long[LoopStats.KIND_COUNTERS];
            for (int i = 0; i < loops.size(); i++) {
                LoopStats.KindStats r = loops.get(i).stats.phases[phase].kinds[k];
                Histogram h = r.latency.getIntervalHistogram(recycledKind[i][phase][k]);
                recycledKind[i][phase][k] = h;
                latency.add(h);
                for (int c = 0; c < LoopStats.KIND_COUNTERS; c++) {
                    long v = r.counters.get(c);
                    sums[c] += v - lastKindCounters[i][phase][k][c];
                    lastKindCounters[i][phase][k][c] = v;
                }
            }
            allLatency.add(latency);
            for (int c = 0; c < sums.length; c++) {
                allSums[c] += sums[c];
            }
            long[] errors = new long[ErrorKind.values().length];
            System.arraycopy(sums, LoopStats.ERRORS, errors, 0, errors.length);
            KindFigures f = new KindFigures(sums[LoopStats.SUCCESSES], LoadDriver.errorMap(errors), latency);
            if (f.requests() > 0) {
                byKind.put(kinds.name(k), f);
            }
        }
        return byKind;
    }

    /**
     * Runs an empty task on every loop and waits for them: a loop runs tasks between the completions it handles,
     * so afterwards every completion that began before has been recorded. Bounded: a stuck loop only costs exactness.
     */
    private void awaitLoops() {
        List<Future<?>> done = new ArrayList<>();
        for (DriverLoop loop : loops) {
            try {
                done.add(loop.eventLoop.submit(() -> { }));
            } catch (RejectedExecutionException e) {
                // shutting down: nothing more will be recorded on it
            }
        }
        for (Future<?> f : done) {
            try {
                f.get(BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                // an empty task cannot fail; a loop that does not answer is left as it is
            }
        }
    }

    private Histogram drain(SingleWriterRecorder recorder, int loop, int phase, int which) {
        Histogram h = recorder.getIntervalHistogram(recycled[loop][phase][which]);
        recycled[loop][phase][which] = h;
        return h;
    }
}

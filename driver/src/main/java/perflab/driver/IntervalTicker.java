package perflab.driver;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import perflab.core.traffic.ErrorKind;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The once-a-second thread (not an event loop, so a slow listener cannot delay requests): swaps every loop's
 * recorders, merges them into copies the listener owns, and reports an {@link Interval}. An interval is also
 * cut at each phase change so that no interval mixes warm-up and measurement (apart from the few completions
 * that race with the cut itself).
 */
final class IntervalTicker implements Runnable {
    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final List<LoopStats> loops;
    private final MeasurementWindow window;
    private final IntervalListener listener;
    private final Histogram[][] recycled;
    private final long[][] lastCounters;
    private final Thread thread;
    private boolean cutRequested;
    private boolean finishRequested;
    private boolean listenerFailed;

    private int intervalPhase;
    private long intervalStartEpochMs;
    private long phaseStartNanos;

    IntervalTicker(List<LoopStats> loops, MeasurementWindow window, IntervalListener listener) {
        this.loops = loops;
        this.window = window;
        this.listener = listener;
        this.recycled = new Histogram[loops.size()][4];
        this.lastCounters = new long[loops.size()][LoopStats.COUNTERS];
        this.thread = new Thread(this, "perflab-driver-ticker");
        this.thread.setDaemon(true);
    }

    void start() {
        intervalPhase = window.phase();
        intervalStartEpochMs = System.currentTimeMillis();
        phaseStartNanos = System.nanoTime();
        thread.start();
    }

    /** The phase changed: cut the current interval now. */
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
        long nextCut = System.nanoTime() + PERIOD_NANOS;
        while (true) {
            boolean finishing;
            synchronized (this) {
                long wait;
                while (!finishRequested && !cutRequested && (wait = nextCut - System.nanoTime()) > 0) {
                    try {
                        TimeUnit.NANOSECONDS.timedWait(this, wait);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                finishing = finishRequested;
                cutRequested = false;
            }
            long now = cut();
            if (finishing) {
                return;
            }
            nextCut = now + PERIOD_NANOS;
        }
    }

    private long cut() {
        long endEpochMs = System.currentTimeMillis();
        long nowNanos = System.nanoTime();
        Histogram latency = new Histogram(LoopStats.DIGITS);
        Histogram service = new Histogram(LoopStats.DIGITS);
        Histogram failed = new Histogram(LoopStats.DIGITS);
        Histogram lag = new Histogram(LoopStats.DIGITS);
        long[] sums = new long[LoopStats.COUNTERS];
        for (int i = 0; i < loops.size(); i++) {
            LoopStats s = loops.get(i);
            latency.add(drain(s.latency, i, 0));
            service.add(drain(s.serviceTime, i, 1));
            failed.add(drain(s.failed, i, 2));
            lag.add(drain(s.lag, i, 3));
            for (int c = 0; c < LoopStats.COUNTERS; c++) {
                long v = s.counters.get(c);
                sums[c] += v - lastCounters[i][c];
                lastCounters[i][c] = v;
            }
        }
        int label = intervalPhase;
        if (label != MeasurementWindow.DONE && endEpochMs > intervalStartEpochMs) {
            Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
            for (ErrorKind k : ErrorKind.values()) {
                errors.put(k, sums[LoopStats.ERRORS + k.ordinal()]);
            }
            Interval interval = new Interval(label == MeasurementWindow.WARMUP ? Phase.WARMUP : Phase.MEASURE,
                    intervalStartEpochMs, endEpochMs, (nowNanos - phaseStartNanos) / 1e9, sums[LoopStats.SUCCESSES],
                    errors, latency, service, failed, lag, sums[LoopStats.BYTES_SENT], sums[LoopStats.BYTES_RECEIVED]);
            try {
                listener.onInterval(interval);
            } catch (RuntimeException e) {
                if (!listenerFailed) {
                    listenerFailed = true; // once: a broken listener must not stop the run or flood the console
                    System.err.println("perflab driver: the interval listener failed: " + e);
                }
            }
        }
        int current = window.phase();
        if (current != label) {
            intervalPhase = current;
            phaseStartNanos = nowNanos;
        }
        intervalStartEpochMs = endEpochMs;
        return nowNanos;
    }

    private Histogram drain(SingleWriterRecorder recorder, int loop, int which) {
        Histogram h = recorder.getIntervalHistogram(recycled[loop][which]);
        recycled[loop][which] = h;
        return h;
    }
}

package perflab.driver;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import perflab.core.traffic.ErrorKind;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The statistics of one event loop. The loop's thread is the only writer, so recording takes no lock: the
 * per-second recorders are HdrHistogram single-writer recorders that the ticker swaps, and the per-second
 * counters are cumulative values the ticker differences; both are kept per phase (warm-up, measured), so an
 * interval cut a moment after the phase change still holds each completion in its own phase, and the measured
 * intervals add up exactly to the totals. The phase's totals are plain fields that are read only through a task
 * run on the loop (which orders them after every write).
 *
 * <p>The phase only picks which {@link PhaseStats} a completion goes to: warm-up and window run the same code, so
 * the JIT compiles during the warm-up exactly what the window runs (a branch taken only in the window would be
 * compiled as an uncommon trap and deoptimise the driver's hot path at the phase change).
 */
final class LoopStats {
    /** Latencies are microseconds; anything beyond an hour is clamped (3 significant digits throughout). */
    static final long MAX_MICROS = 3_600_000_000L;
    static final int DIGITS = 3;

    /** A kind's counters: successes, then errors by ErrorKind. */
    static final int SUCCESSES = 0;
    static final int ERRORS = 1; // + ErrorKind.ordinal()
    static final int KIND_COUNTERS = ERRORS + ErrorKind.values().length;
    /** A phase's counters. */
    static final int BYTES_SENT = 0;
    static final int BYTES_RECEIVED = 1;
    static final int COUNTERS = 2;

    /** By phase: {@link MeasurementWindow#WARMUP}, {@link MeasurementWindow#MEASURE}. */
    final PhaseStats[] phases;

    LoopStats(int kinds) {
        phases = new PhaseStats[] {new PhaseStats(kinds), new PhaseStats(kinds)};
    }

    /**
     * One request kind's successes, errors and latency in one phase. These are the only records of them: the
     * phase's (and the interval's) successes, errors and latency are the sum of its kinds', so the kinds add up to
     * the totals exactly, per second too, and recording per kind costs the hot path nothing extra.
     */
    static final class KindStats {
        final SingleWriterRecorder latency = recorder();
        /** Cumulative since the start; written with lazySet by the loop, read by the ticker. */
        final AtomicLongArray counters = new AtomicLongArray(KIND_COUNTERS);
        // totals: loop thread only
        final Histogram totalLatency = histogram();
        long successes;
        final long[] errors = new long[ErrorKind.values().length];

        private void increment(int counter) {
            // Single writer: an ordered store is enough, no read-modify-write atomics on the hot path.
            counters.lazySet(counter, counters.get(counter) + 1);
        }
    }

    /** One phase's figures: per second for the ticker, and in total. */
    static final class PhaseStats {
        /** By the index of {@link RequestKinds}. */
        final KindStats[] kinds;
        final SingleWriterRecorder serviceTime = recorder();
        final SingleWriterRecorder failed = recorder();
        final SingleWriterRecorder lag = recorder();
        /** Cumulative since the start; written with lazySet by the loop, read by the ticker. */
        final AtomicLongArray counters = new AtomicLongArray(COUNTERS);

        // totals: loop thread only
        final Histogram totalServiceTime = histogram();
        final Histogram totalFailed = histogram();
        final Histogram totalLag = histogram();
        long completed;
        long bytesSent;
        long bytesReceived;
        long connectionsOpened;
        long resent;

        PhaseStats(int kinds) {
            this.kinds = new KindStats[kinds];
            for (int i = 0; i < kinds; i++) {
                this.kinds[i] = new KindStats();
            }
        }

        private void increment(int counter, long by) {
            counters.lazySet(counter, counters.get(counter) + by);
        }
    }

    static Histogram histogram() {
        return new Histogram(1, MAX_MICROS, DIGITS);
    }

    private static SingleWriterRecorder recorder() {
        return new SingleWriterRecorder(1, MAX_MICROS, DIGITS);
    }

    static long micros(long nanos) {
        long us = nanos / 1000;
        return us < 1 ? 1 : Math.min(us, MAX_MICROS);
    }

    void success(int phase, int kind, long latencyNanos, long serviceNanos) {
        if (phase > MeasurementWindow.MEASURE) { // DRAIN, DONE: not the window's
            return;
        }
        long lat = micros(latencyNanos);
        long svc = micros(serviceNanos);
        PhaseStats p = phases[phase];
        p.serviceTime.recordValue(svc);
        p.totalServiceTime.recordValue(svc);
        p.completed++;
        KindStats k = p.kinds[kind];
        k.latency.recordValue(lat);
        k.totalLatency.recordValue(lat);
        k.increment(SUCCESSES);
        k.successes++;
    }

    void failure(int phase, int requestKind, ErrorKind kind, long latencyNanos) {
        if (phase > MeasurementWindow.MEASURE) { // DRAIN, DONE: not the window's
            return;
        }
        long lat = micros(latencyNanos);
        PhaseStats p = phases[phase];
        p.failed.recordValue(lat);
        p.totalFailed.recordValue(lat);
        p.completed++;
        KindStats k = p.kinds[requestKind];
        k.increment(ERRORS + kind.ordinal());
        k.errors[kind.ordinal()]++;
    }

    void lag(int phase, long lagNanos) {
        if (phase > MeasurementWindow.MEASURE) { // DRAIN, DONE: not the window's
            return;
        }
        long us = micros(lagNanos);
        PhaseStats p = phases[phase];
        p.lag.recordValue(us);
        p.totalLag.recordValue(us);
    }

    void sent(int phase, int bytes) {
        if (phase > MeasurementWindow.MEASURE) { // DRAIN, DONE: not the window's
            return;
        }
        PhaseStats p = phases[phase];
        p.increment(BYTES_SENT, bytes);
        p.bytesSent += bytes;
    }

    void received(int phase, int bytes) {
        if (phase > MeasurementWindow.MEASURE) { // DRAIN, DONE: not the window's
            return;
        }
        PhaseStats p = phases[phase];
        p.increment(BYTES_RECEIVED, bytes);
        p.bytesReceived += bytes;
    }

    void connectionOpened(int phase) {
        if (phase > MeasurementWindow.MEASURE) { // DRAIN, DONE: not the window's
            return;
        }
        phases[phase].connectionsOpened++;
    }

    /** A request sent again on a new connection: its reused one closed without a byte of answer ({@link ClientConnection}). */
    void resent(int phase) {
        if (phase > MeasurementWindow.MEASURE) { // DRAIN, DONE: not the window's
            return;
        }
        phases[phase].resent++;
    }

    /** A copy of the measured totals. Run on the loop's thread. */
    Totals totals() {
        PhaseStats m = phases[MeasurementWindow.MEASURE];
        KindTotals[] kinds = new KindTotals[m.kinds.length];
        Histogram latency = histogram();
        long successes = 0;
        long[] errors = new long[ErrorKind.values().length];
        for (int i = 0; i < kinds.length; i++) {
            KindStats k = m.kinds[i];
            kinds[i] = new KindTotals(k.successes, k.errors.clone(), k.totalLatency.copy());
            latency.add(k.totalLatency);
            successes += k.successes;
            for (int e = 0; e < errors.length; e++) {
                errors[e] += k.errors[e];
            }
        }
        return new Totals(latency, m.totalServiceTime.copy(), m.totalFailed.copy(), m.totalLag.copy(),
                successes, errors, m.bytesSent, m.bytesReceived, phases[MeasurementWindow.WARMUP].completed,
                m.connectionsOpened, m.resent, kinds);
    }

    record KindTotals(long successes, long[] errors, Histogram latency) {
    }

    /** {@code kinds}: by the index of {@link RequestKinds}. */
    record Totals(Histogram latency, Histogram serviceTime, Histogram failed, Histogram lag, long successes,
                  long[] errors, long bytesSent, long bytesReceived, long warmupCompleted, long connectionsOpened,
                  long resent, KindTotals[] kinds) {
    }
}

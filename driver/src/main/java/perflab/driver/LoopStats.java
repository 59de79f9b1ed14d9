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

    static final int SUCCESSES = 0;
    static final int ERRORS = 1; // + ErrorKind.ordinal()
    static final int BYTES_SENT = ERRORS + ErrorKind.values().length;
    static final int BYTES_RECEIVED = BYTES_SENT + 1;
    static final int COUNTERS = BYTES_RECEIVED + 1;

    /** By phase: {@link MeasurementWindow#WARMUP}, {@link MeasurementWindow#MEASURE}. */
    final PhaseStats[] phases = {new PhaseStats(), new PhaseStats()};

    /** One phase's figures: per second for the ticker, and in total. */
    static final class PhaseStats {
        final SingleWriterRecorder latency = recorder();
        final SingleWriterRecorder serviceTime = recorder();
        final SingleWriterRecorder failed = recorder();
        final SingleWriterRecorder lag = recorder();
        /** Cumulative since the start; written with lazySet by the loop, read by the ticker. */
        final AtomicLongArray counters = new AtomicLongArray(COUNTERS);

        // totals: loop thread only
        final Histogram totalLatency = histogram();
        final Histogram totalServiceTime = histogram();
        final Histogram totalFailed = histogram();
        final Histogram totalLag = histogram();
        long successes;
        final long[] errors = new long[ErrorKind.values().length];
        long completed;
        long bytesSent;
        long bytesReceived;
        long connectionsOpened;

        private void increment(int counter, long by) {
            // Single writer: an ordered store is enough, no read-modify-write atomics on the hot path.
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

    void success(int phase, long latencyNanos, long serviceNanos) {
        if (phase == MeasurementWindow.DONE) {
            return;
        }
        long lat = micros(latencyNanos);
        long svc = micros(serviceNanos);
        PhaseStats p = phases[phase];
        p.latency.recordValue(lat);
        p.serviceTime.recordValue(svc);
        p.increment(SUCCESSES, 1);
        p.totalLatency.recordValue(lat);
        p.totalServiceTime.recordValue(svc);
        p.successes++;
        p.completed++;
    }

    void failure(int phase, ErrorKind kind, long latencyNanos) {
        if (phase == MeasurementWindow.DONE) {
            return;
        }
        long lat = micros(latencyNanos);
        PhaseStats p = phases[phase];
        p.failed.recordValue(lat);
        p.increment(ERRORS + kind.ordinal(), 1);
        p.totalFailed.recordValue(lat);
        p.errors[kind.ordinal()]++;
        p.completed++;
    }

    void lag(int phase, long lagNanos) {
        if (phase == MeasurementWindow.DONE) {
            return;
        }
        long us = micros(lagNanos);
        PhaseStats p = phases[phase];
        p.lag.recordValue(us);
        p.totalLag.recordValue(us);
    }

    void sent(int phase, int bytes) {
        if (phase == MeasurementWindow.DONE) {
            return;
        }
        PhaseStats p = phases[phase];
        p.increment(BYTES_SENT, bytes);
        p.bytesSent += bytes;
    }

    void received(int phase, int bytes) {
        if (phase == MeasurementWindow.DONE) {
            return;
        }
        PhaseStats p = phases[phase];
        p.increment(BYTES_RECEIVED, bytes);
        p.bytesReceived += bytes;
    }

    void connectionOpened(int phase) {
        if (phase == MeasurementWindow.DONE) {
            return;
        }
        phases[phase].connectionsOpened++;
    }

    /** A copy of the measured totals. Run on the loop's thread. */
    Totals totals(EncodedRequest.Cache encoded) {
        PhaseStats m = phases[MeasurementWindow.MEASURE];
        return new Totals(m.totalLatency.copy(), m.totalServiceTime.copy(), m.totalFailed.copy(), m.totalLag.copy(),
                m.successes, m.errors.clone(), m.bytesSent, m.bytesReceived, phases[MeasurementWindow.WARMUP].completed,
                m.connectionsOpened, encoded.successesByKind());
    }

    record Totals(Histogram latency, Histogram serviceTime, Histogram failed, Histogram lag, long successes,
                  long[] errors, long bytesSent, long bytesReceived, long warmupCompleted, long connectionsOpened,
                  java.util.Map<String, Long> successesByKind) {
    }
}

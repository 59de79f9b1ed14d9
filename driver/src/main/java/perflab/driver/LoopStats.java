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
 * intervals add up exactly to the totals. The measured-window totals are plain fields that are read only through
 * a task run on the loop (which orders them after every write).
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

    /** Per-second recorders and counters by phase: {@link MeasurementWindow#WARMUP}, {@link MeasurementWindow#MEASURE}. */
    final PhaseRecorders[] phases = {new PhaseRecorders(), new PhaseRecorders()};

    /** One phase's per-second figures. */
    static final class PhaseRecorders {
        final SingleWriterRecorder latency = recorder();
        final SingleWriterRecorder serviceTime = recorder();
        final SingleWriterRecorder failed = recorder();
        final SingleWriterRecorder lag = recorder();
        /** Cumulative since the start; written with lazySet by the loop, read by the ticker. */
        final AtomicLongArray counters = new AtomicLongArray(COUNTERS);

        private void increment(int counter, long by) {
            // Single writer: an ordered store is enough, no read-modify-write atomics on the hot path.
            counters.lazySet(counter, counters.get(counter) + by);
        }
    }

    // Measured window totals: loop thread only.
    final Histogram totalLatency = histogram();
    final Histogram totalServiceTime = histogram();
    final Histogram totalFailed = histogram();
    final Histogram totalLag = histogram();
    long totalSuccesses;
    final long[] totalErrors = new long[ErrorKind.values().length];
    long totalBytesSent;
    long totalBytesReceived;
    long warmupCompleted;
    long connectionsOpened;

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
        PhaseRecorders p = phases[phase];
        p.latency.recordValue(lat);
        p.serviceTime.recordValue(svc);
        p.increment(SUCCESSES, 1);
        if (phase == MeasurementWindow.MEASURE) {
            totalLatency.recordValue(lat);
            totalServiceTime.recordValue(svc);
            totalSuccesses++;
        } else {
            warmupCompleted++;
        }
    }

    void failure(int phase, ErrorKind kind, long latencyNanos) {
        if (phase == MeasurementWindow.DONE) {
            return;
        }
        long lat = micros(latencyNanos);
        PhaseRecorders p = phases[phase];
        p.failed.recordValue(lat);
        p.increment(ERRORS + kind.ordinal(), 1);
        if (phase == MeasurementWindow.MEASURE) {
            totalFailed.recordValue(lat);
            totalErrors[kind.ordinal()]++;
        } else {
            warmupCompleted++;
        }
    }

    void lag(int phase, long lagNanos) {
        if (phase == MeasurementWindow.DONE) {
            return;
        }
        long us = micros(lagNanos);
        phases[phase].lag.recordValue(us);
        if (phase == MeasurementWindow.MEASURE) {
            totalLag.recordValue(us);
        }
    }

    void sent(int phase, int bytes) {
        if (phase == MeasurementWindow.DONE) {
            return;
        }
        phases[phase].increment(BYTES_SENT, bytes);
        if (phase == MeasurementWindow.MEASURE) {
            totalBytesSent += bytes;
        }
    }

    void received(int phase, int bytes) {
        if (phase == MeasurementWindow.DONE) {
            return;
        }
        phases[phase].increment(BYTES_RECEIVED, bytes);
        if (phase == MeasurementWindow.MEASURE) {
            totalBytesReceived += bytes;
        }
    }

    void connectionOpened(int phase) {
        if (phase == MeasurementWindow.MEASURE) {
            connectionsOpened++;
        }
    }

    /** A copy of the measured totals. Run on the loop's thread. */
    Totals totals(EncodedRequest.Cache encoded) {
        return new Totals(totalLatency.copy(), totalServiceTime.copy(), totalFailed.copy(), totalLag.copy(),
                totalSuccesses, totalErrors.clone(), totalBytesSent, totalBytesReceived, warmupCompleted,
                connectionsOpened, encoded.successesByKind());
    }

    record Totals(Histogram latency, Histogram serviceTime, Histogram failed, Histogram lag, long successes,
                  long[] errors, long bytesSent, long bytesReceived, long warmupCompleted, long connectionsOpened,
                  java.util.Map<String, Long> successesByKind) {
    }
}

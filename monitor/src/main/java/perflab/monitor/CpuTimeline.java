package perflab.monitor;

import perflab.core.os.ProcessCpu;

import java.util.Arrays;

/**
 * A process's cumulative CPU time sampled against wall-clock time, so that the CPU spent inside any window
 * (the measured window, known only when the driver ends it) can be read off afterwards by interpolation.
 * Bounded: keeps one sample per {@code step} and at most {@code capacity} samples, thinning by half when full,
 * so a soak of many hours costs a few kilobytes.
 */
public final class CpuTimeline {
    private final long pid;
    private long[] epochMs = new long[1024];
    private long[] cpuNanos = new long[1024];
    private int size;

    public CpuTimeline(long pid) {
        this.pid = pid;
    }

    /** Takes a sample now; returns false if the process is gone. */
    public synchronized boolean sample() {
        ProcessCpu.Sample s = ProcessCpu.read(pid);
        if (s == null) {
            return false;
        }
        if (size == epochMs.length) {
            thin();
        }
        epochMs[size] = System.currentTimeMillis();
        cpuNanos[size] = s.totalNanos();
        size++;
        return true;
    }

    /** CPU seconds the process used between two wall-clock instants; NaN without samples around them. */
    public synchronized double cpuSecondsBetween(long fromEpochMs, long toEpochMs) {
        if (size < 2) {
            return Double.NaN;
        }
        return (at(toEpochMs) - at(fromEpochMs)) / 1e9;
    }

    private double at(long t) {
        if (t <= epochMs[0]) {
            return cpuNanos[0];
        }
        if (t >= epochMs[size - 1]) {
            return cpuNanos[size - 1];
        }
        int i = Arrays.binarySearch(epochMs, 0, size, t);
        if (i >= 0) {
            return cpuNanos[i];
        }
        int hi = -i - 1;
        int lo = hi - 1;
        double f = (double) (t - epochMs[lo]) / Math.max(1, epochMs[hi] - epochMs[lo]);
        return cpuNanos[lo] + f * (cpuNanos[hi] - cpuNanos[lo]);
    }

    private void thin() {
        int j = 0;
        for (int i = 0; i < size; i += 2) {
            epochMs[j] = epochMs[i];
            cpuNanos[j] = cpuNanos[i];
            j++;
        }
        // keep the newest sample exact so that the window's end interpolates correctly
        epochMs[j - 1] = epochMs[size - 1];
        cpuNanos[j - 1] = cpuNanos[size - 1];
        size = j;
    }
}

package perflab.monitor;

import java.util.Arrays;

/**
 * Samples of a few counters and gauges against wall-clock time, so that figures for any window (the measured
 * window, known only when the driver ends it) can be read off afterwards: a counter's increase by
 * interpolation between the samples around the window's ends, a gauge's mean or maximum over the samples
 * inside it. Bounded: at most {@code capacity} samples, thinned by half when full (the newest sample is
 * kept), so a soak of many hours costs a few tens of kilobytes.
 */
public final class CounterTimeline {
    private final int columns;
    private final int capacity;
    private long[] epochMs;
    private long[][] values;
    private int size;

    public CounterTimeline(int columns) {
        this(columns, 1024);
    }

    CounterTimeline(int columns, int capacity) {
        this.columns = columns;
        this.capacity = Math.max(4, capacity);
        this.epochMs = new long[this.capacity];
        this.values = new long[columns][this.capacity];
    }

    /** Records one sample of every column, taken at {@code atEpochMs}; samples must come in time order. */
    public synchronized void add(long atEpochMs, long... sample) {
        if (sample.length != columns) {
            throw new IllegalArgumentException("expected " + columns + " values, got " + sample.length);
        }
        if (size == capacity) {
            thin();
        }
        epochMs[size] = atEpochMs;
        for (int c = 0; c < columns; c++) {
            values[c][size] = sample[c];
        }
        size++;
    }

    public synchronized int size() {
        return size;
    }

    /** How much a counter grew between two instants (interpolated); NaN with fewer than two samples. */
    public synchronized double increase(int column, long fromEpochMs, long toEpochMs) {
        if (size < 2) {
            return Double.NaN;
        }
        return at(column, toEpochMs) - at(column, fromEpochMs);
    }

    /** Seconds covered by samples inside the window (after clipping it to the samples' span). */
    public synchronized double coveredSeconds(long fromEpochMs, long toEpochMs) {
        if (size < 2) {
            return 0;
        }
        long from = Math.max(fromEpochMs, epochMs[0]);
        long to = Math.min(toEpochMs, epochMs[size - 1]);
        return Math.max(0, to - from) / 1000.0;
    }

    /** Mean of a gauge over the samples taken inside the window, or the nearest sample's value; NaN if empty. */
    public synchronized double mean(int column, long fromEpochMs, long toEpochMs) {
        long sum = 0;
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (epochMs[i] >= fromEpochMs && epochMs[i] <= toEpochMs) {
                sum += values[column][i];
                n++;
            }
        }
        return n > 0 ? (double) sum / n : nearest(column, toEpochMs);
    }

    /** Maximum of a gauge over the samples taken inside the window, or the nearest sample's value; NaN if empty. */
    public synchronized double max(int column, long fromEpochMs, long toEpochMs) {
        long max = Long.MIN_VALUE;
        for (int i = 0; i < size; i++) {
            if (epochMs[i] >= fromEpochMs && epochMs[i] <= toEpochMs) {
                max = Math.max(max, values[column][i]);
            }
        }
        return max != Long.MIN_VALUE ? max : nearest(column, toEpochMs);
    }

    /** The value of the last sample taken at or before {@code t} (the first sample if none); NaN if empty. */
    public synchronized double last(int column, long t) {
        if (size == 0) {
            return Double.NaN;
        }
        int i = Arrays.binarySearch(epochMs, 0, size, t);
        int idx = i >= 0 ? i : Math.max(0, -i - 2);
        return values[column][idx];
    }

    private double nearest(int column, long t) {
        if (size == 0) {
            return Double.NaN;
        }
        int best = 0;
        for (int i = 1; i < size; i++) {
            if (Math.abs(epochMs[i] - t) < Math.abs(epochMs[best] - t)) {
                best = i;
            }
        }
        return values[column][best];
    }

    private double at(int column, long t) {
        long[] v = values[column];
        if (t <= epochMs[0]) {
            return v[0];
        }
        if (t >= epochMs[size - 1]) {
            return v[size - 1];
        }
        int i = Arrays.binarySearch(epochMs, 0, size, t);
        if (i >= 0) {
            return v[i];
        }
        int hi = -i - 1;
        int lo = hi - 1;
        double f = (double) (t - epochMs[lo]) / Math.max(1, epochMs[hi] - epochMs[lo]);
        return v[lo] + f * (v[hi] - v[lo]);
    }

    private void thin() {
        int j = 0;
        for (int i = 0; i < size; i += 2) {
            move(i, j++);
        }
        // keep the newest sample exact so that the window's end interpolates correctly
        move(size - 1, j - 1);
        size = j;
    }

    private void move(int from, int to) {
        epochMs[to] = epochMs[from];
        for (int c = 0; c < columns; c++) {
            values[c][to] = values[c][from];
        }
    }
}

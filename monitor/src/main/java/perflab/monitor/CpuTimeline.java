package perflab.monitor;

import perflab.core.os.ProcessCpu;

/**
 * A process's cumulative CPU time (user and system) sampled against wall-clock time, so that the CPU spent
 * inside any window (the measured window, known only when the driver ends it) can be read off afterwards by
 * interpolation. Bounded (see {@link CounterTimeline}).
 */
public final class CpuTimeline {
    private static final int USER = 0;
    private static final int SYSTEM = 1;

    private final long pid;
    private final CounterTimeline timeline = new CounterTimeline(2);

    public CpuTimeline(long pid) {
        this.pid = pid;
    }

    /** Takes a sample now; returns false if the process is gone. */
    public boolean sample() {
        ProcessCpu.Sample s = ProcessCpu.read(pid);
        if (s == null) {
            return false;
        }
        add(System.currentTimeMillis(), s);
        return true;
    }

    /** Records a sample read elsewhere (the same read serves the per-second figures). */
    public void add(long atEpochMs, ProcessCpu.Sample s) {
        timeline.add(atEpochMs, s.userNanos(), s.systemNanos());
    }

    /** How many samples the timeline holds now (tests: it stays bounded). */
    int samples() {
        return timeline.size();
    }

    /** CPU seconds the process used between two wall-clock instants; NaN without samples around them. */
    public double cpuSecondsBetween(long fromEpochMs, long toEpochMs) {
        return (timeline.increase(USER, fromEpochMs, toEpochMs) + timeline.increase(SYSTEM, fromEpochMs, toEpochMs)) / 1e9;
    }

    /** User-mode CPU seconds between two instants; NaN without samples. */
    public double userSecondsBetween(long fromEpochMs, long toEpochMs) {
        return timeline.increase(USER, fromEpochMs, toEpochMs) / 1e9;
    }

    /** Kernel-mode CPU seconds between two instants; NaN without samples. */
    public double systemSecondsBetween(long fromEpochMs, long toEpochMs) {
        return timeline.increase(SYSTEM, fromEpochMs, toEpochMs) / 1e9;
    }
}

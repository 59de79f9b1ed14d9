package perflab.core.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a process's CPU time from /proc/&lt;pid&gt;/stat (user and system, all threads) and its thread count.
 * Shared by the driver (its own CPU) and the monitor (the SUT's). Linux only; elsewhere {@link #read} returns
 * null.
 */
public final class ProcessCpu {
    /** USER_HZ: the unit of /proc's CPU times. 100 on every mainstream Linux architecture. */
    private static final long TICKS_PER_SECOND = 100;
    static final long NANOS_PER_TICK = 1_000_000_000L / TICKS_PER_SECOND;

    private ProcessCpu() {
    }

    /**
     * CPU time of a process, in nanoseconds (10 ms resolution: /proc counts in USER_HZ ticks).
     *
     * @param wallNanos {@link System#nanoTime()} when read
     * @param threads   the process's threads (num_threads) when read
     */
    public record Sample(long pid, long userNanos, long systemNanos, long wallNanos, int threads) {
        public long totalNanos() {
            return userNanos + systemNanos;
        }

        public double totalSeconds() {
            return totalNanos() / 1e9;
        }
    }

    /** The process's CPU time now, or null if the process is gone or /proc is not there. */
    public static Sample read(long pid) {
        long wall = System.nanoTime();
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            return null;
        }
        long[] fields = statFields(stat);
        if (fields == null) {
            return null;
        }
        long utime = fields[0];
        long stime = fields[1];
        int threads = (int) fields[2];
        return new Sample(pid, utime * NANOS_PER_TICK, stime * NANOS_PER_TICK, wall, threads);
    }

    /**
     * utime, stime (USER_HZ ticks) and num_threads of a /proc/&lt;pid&gt;/stat or /proc/&lt;pid&gt;/task/&lt;tid&gt;/stat
     * line, or null when it cannot be parsed.
     */
    static long[] statFields(String stat) {
        // The command name (field 2) is in parentheses and may contain spaces: parse after the last ')'.
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 > stat.length()) {
            return null;
        }
        String[] fields = stat.substring(close + 2).trim().split(" ");
        // fields[0] is field 3 (state); utime is field 14, stime field 15, num_threads field 20.
        try {
            return new long[] {Long.parseLong(fields[11]), Long.parseLong(fields[12]), Long.parseLong(fields[17])};
        } catch (RuntimeException e) {
            return null;
        }
    }

    public static Sample self() {
        return read(ProcessHandle.current().pid());
    }

    /** CPU seconds between two samples of the same process. */
    public static double secondsBetween(Sample from, Sample to) {
        if (from == null || to == null) {
            return Double.NaN;
        }
        return (to.totalNanos() - from.totalNanos()) / 1e9;
    }

    /** CPU use between two samples as a percentage of one core. */
    public static double percentOfOneCore(Sample from, Sample to) {
        if (from == null || to == null || to.wallNanos() <= from.wallNanos()) {
            return Double.NaN;
        }
        return 100.0 * (to.totalNanos() - from.totalNanos()) / (to.wallNanos() - from.wallNanos());
    }

    /** User-mode CPU between two samples as a percentage of one core. */
    public static double userPercentOfOneCore(Sample from, Sample to) {
        if (from == null || to == null || to.wallNanos() <= from.wallNanos()) {
            return Double.NaN;
        }
        return 100.0 * (to.userNanos() - from.userNanos()) / (to.wallNanos() - from.wallNanos());
    }

    /** Kernel-mode CPU between two samples as a percentage of one core. */
    public static double systemPercentOfOneCore(Sample from, Sample to) {
        if (from == null || to == null || to.wallNanos() <= from.wallNanos()) {
            return Double.NaN;
        }
        return 100.0 * (to.systemNanos() - from.systemNanos()) / (to.wallNanos() - from.wallNanos());
    }
}

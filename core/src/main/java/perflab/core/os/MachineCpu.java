package perflab.core.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the whole machine's CPU time from /proc/stat (the aggregate "cpu" line, all online CPUs). Linux only;
 * elsewhere {@link #read} returns null.
 */
public final class MachineCpu {
    private static final Path STAT = Path.of("/proc/stat");

    private MachineCpu() {
    }

    /**
     * Cumulative CPU ticks (USER_HZ) of all CPUs since boot.
     *
     * @param busyTicks  user + nice + system + irq + softirq + steal (guest time is already inside user)
     * @param totalTicks busy + idle + iowait
     * @param cpus       online CPUs (the "cpuN" lines)
     */
    public record Sample(long busyTicks, long totalTicks, int cpus) {
    }

    /** The machine's CPU counters now, or null when /proc/stat is not there or not understood. */
    public static Sample read() {
        List<String> lines;
        try {
            lines = Files.readAllLines(STAT);
        } catch (IOException e) {
            return null;
        }
        Sample s = null;
        int cpus = 0;
        for (String line : lines) {
            if (line.startsWith("cpu ")) {
                s = parse(line);
            } else if (line.startsWith("cpu")) {
                cpus++;
            } else if (s != null) {
                break;
            }
        }
        return s == null ? null : new Sample(s.busyTicks(), s.totalTicks(), Math.max(1, cpus));
    }

    static Sample parse(String cpuLine) {
        String[] f = ProcWords.of(cpuLine);
        try {
            long user = Long.parseLong(f[1]);
            long nice = Long.parseLong(f[2]);
            long system = Long.parseLong(f[3]);
            long idle = Long.parseLong(f[4]);
            long iowait = f.length > 5 ? Long.parseLong(f[5]) : 0;
            long irq = f.length > 6 ? Long.parseLong(f[6]) : 0;
            long softirq = f.length > 7 ? Long.parseLong(f[7]) : 0;
            long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
            long busy = user + nice + system + irq + softirq + steal;
            return new Sample(busy, busy + idle + iowait, 0);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Online CPUs of the machine (not this process's affinity), or the JVM's count when /proc is missing. */
    public static int cpus() {
        Sample s = read();
        return s == null ? Runtime.getRuntime().availableProcessors() : s.cpus();
    }

    /** Busy share of all CPUs between two samples, in % (100 = every CPU busy); NaN without an interval. */
    public static double percentBusy(Sample from, Sample to) {
        if (from == null || to == null || to.totalTicks() <= from.totalTicks()) {
            return Double.NaN;
        }
        return 100.0 * (to.busyTicks() - from.busyTicks()) / (to.totalTicks() - from.totalTicks());
    }
}

package perflab.monitor;

import perflab.core.os.ProcessCpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Samples one process once a second: CPU since the previous sample (% of one core) and resident set size.
 * Not thread-safe: one sampling thread per process.
 */
public final class ProcessSampler {
    private final long pid;
    private ProcessCpu.Sample previous;

    /** One sample. {@code cpuPercent} is NaN for the first sample or when the process is gone. */
    public record Reading(double cpuPercent, double rssMb, boolean alive) {
    }

    public ProcessSampler(long pid) {
        this.pid = pid;
        this.previous = ProcessCpu.read(pid);
    }

    public long pid() {
        return pid;
    }

    public Reading sample() {
        ProcessCpu.Sample now = ProcessCpu.read(pid);
        double cpu = ProcessCpu.percentOfOneCore(previous, now);
        if (now != null) {
            previous = now;
        }
        return new Reading(cpu, rssMb(pid), now != null);
    }

    /** VmRSS from /proc/&lt;pid&gt;/status, in MiB; NaN if unavailable. */
    public static double rssMb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    String kb = line.substring(6).trim().split("\\s+")[0];
                    return Long.parseLong(kb) / 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }
}

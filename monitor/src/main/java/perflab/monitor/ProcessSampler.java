package perflab.monitor;

import perflab.core.os.JitCompilerCpu;
import perflab.core.os.MachineCpu;
import perflab.core.os.ProcessCpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Samples one process once a second: CPU since the previous sample (user and system; % of one core and of the
 * machine), the JIT compiler threads' share of it, resident set size and its peak, thread count. Not
 * thread-safe: one sampling thread per process.
 */
public final class ProcessSampler {
    private final long pid;
    private final int machineCpus;
    private final JitCompilerCpu jit;
    private ProcessCpu.Sample previous;
    private ProcessCpu.Sample last;
    /** The compiler threads' CPU as last read: a counter, -1 until read. */
    private long jitPreviousNanos;

    /**
     * One sample. CPU figures are NaN for the first sample or when the process is gone; memory figures NaN
     * when /proc/&lt;pid&gt;/status cannot be read; threads 0 when gone.
     *
     * @param cpuPercent          user + system CPU since the previous sample, % of one core
     * @param cpuPercentOfMachine the same as % of all the machine's CPUs
     * @param rssMb               VmRSS, MiB
     * @param maxRssMb            VmHWM (peak RSS since the process started), MiB
     * @param jitCpuPercent       the JIT compiler threads' CPU since the previous sample, % of one core (NaN when
     *                            unknown; 0 for a process that is not a HotSpot JVM)
     */
    public record Reading(double cpuPercent, double userPercent, double systemPercent, double cpuPercentOfMachine,
                          double rssMb, double maxRssMb, int threads, boolean alive, double jitCpuPercent) {
    }

    /** The memory lines of /proc/&lt;pid&gt;/status, MiB (NaN when missing). */
    public record Memory(double rssMb, double maxRssMb) {
    }

    public ProcessSampler(long pid) {
        this.pid = pid;
        this.machineCpus = MachineCpu.cpus();
        this.previous = ProcessCpu.read(pid);
        this.last = previous;
        this.jit = new JitCompilerCpu(pid);
        this.jitPreviousNanos = jit.readNanos();
    }

    public long pid() {
        return pid;
    }

    public Reading sample() {
        ProcessCpu.Sample now = ProcessCpu.read(pid);
        double cpu = ProcessCpu.percentOfOneCore(previous, now);
        double user = ProcessCpu.userPercentOfOneCore(previous, now);
        double system = ProcessCpu.systemPercentOfOneCore(previous, now);
        long jitNanos = now == null ? -1 : jit.readNanos();
        double jitPercent = Double.NaN;
        if (jitNanos >= 0 && jitPreviousNanos >= 0 && previous != null && now.wallNanos() > previous.wallNanos()) {
            jitPercent = 100.0 * (jitNanos - jitPreviousNanos) / (now.wallNanos() - previous.wallNanos());
        }
        if (now != null) {
            previous = now;
        }
        if (jitNanos >= 0) {
            jitPreviousNanos = jitNanos;
        }
        last = now;
        Memory memory = now == null ? new Memory(Double.NaN, Double.NaN) : memory(pid);
        return new Reading(cpu, user, system, cpu / machineCpus, memory.rssMb(), memory.maxRssMb(),
                now == null ? 0 : now.threads(), now != null, jitPercent);
    }

    /** The CPU counters read by the last {@link #sample()} (null if the process was gone). */
    public ProcessCpu.Sample lastCpu() {
        return last;
    }

    /** The JIT compiler threads' CPU nanoseconds as last read (a counter: never decreases), or -1 when never read. */
    public long lastJitNanos() {
        return jitPreviousNanos;
    }

    /** VmRSS from /proc/&lt;pid&gt;/status, in MiB; NaN if unavailable. */
    public static double rssMb(long pid) {
        return memory(pid).rssMb();
    }

    /** VmRSS and VmHWM from /proc/&lt;pid&gt;/status. */
    public static Memory memory(long pid) {
        double rss = Double.NaN;
        double hwm = Double.NaN;
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = kb(line.substring(6)) / 1024.0;
                } else if (line.startsWith("VmHWM:")) {
                    hwm = kb(line.substring(6)) / 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            return new Memory(Double.NaN, Double.NaN);
        }
        return new Memory(rss, hwm);
    }

    private static long kb(String value) {
        return Long.parseLong(value.trim().split("\\s+")[0]);
    }
}

package perflab.monitor;

import perflab.core.os.JitCompilerCpu;
import perflab.core.os.MachineCpu;
import perflab.core.os.ProcessCpu;
import perflab.core.os.ProcWords;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Samples one process once a second: CPU since the previous sample (user and system; % of one core and of the
 * machine), the JIT compiler threads' share of it, resident set size and its peak, thread count. Not
 * thread-safe: one sampling thread per process.
 *
 * <p>A {@linkplain #tree tree} sampler reads the process with all its descendants as one ({@link ProcessTree}):
 * CPU and threads summed, the member count, and memory as the members' proportional set size summed (shared
 * memory once). That memory is read every {@value #TREE_MEMORY_EVERY_SECONDS} s and carried between reads: a
 * hundred PostgreSQL backends over a few hundred MB of shared buffers take some 60 ms of CPU to read, which
 * every second would be a visible share of the driver's JVM on two cores. JIT figures are the root's.
 */
public final class ProcessSampler {
    /** How often a tree's memory is read (it is carried forward between reads), seconds. */
    static final long TREE_MEMORY_EVERY_SECONDS = 10;

    private final long pid;
    private final boolean tree;
    private final int machineCpus;
    private final JitCompilerCpu jit;
    private ProcessCpu.Sample previous;
    private ProcessCpu.Sample last;
    /** The compiler threads' CPU as last read: a counter, -1 until read. */
    private long jitPreviousNanos;
    /** A tree's last reading: its members, whose memory is read now and then. */
    private List<Long> treePids = List.of();
    private Memory treeMemory = new Memory(Double.NaN, Double.NaN);
    private long treeMemoryReadNanos;
    private boolean treeMemoryRead;

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
     * @param processes           processes sampled: 1 (0 when gone), or a tree's members
     */
    public record Reading(double cpuPercent, double userPercent, double systemPercent, double cpuPercentOfMachine,
                          double rssMb, double maxRssMb, int threads, boolean alive, double jitCpuPercent,
                          int processes) {
        /**
         * Several processes' readings as one (the instances of a SUT): CPU, memory, threads and JIT add up, NaN
         * members left out (a member not yet sampled twice); alive while any member is.
         */
        public static Reading sum(java.util.List<Reading> readings) {
            double[] total = new double[7];
            java.util.Arrays.fill(total, Double.NaN);
            int threads = 0;
            int processes = 0;
            boolean alive = false;
            for (Reading r : readings) {
                double[] v = {r.cpuPercent, r.userPercent, r.systemPercent, r.cpuPercentOfMachine, r.rssMb, r.maxRssMb,
                        r.jitCpuPercent};
                for (int i = 0; i < v.length; i++) {
                    if (!Double.isNaN(v[i])) {
                        total[i] = (Double.isNaN(total[i]) ? 0 : total[i]) + v[i];
                    }
                }
                threads += r.threads;
                processes += r.processes;
                alive |= r.alive;
            }
            return new Reading(total[0], total[1], total[2], total[3], total[4], total[5], threads, alive, total[6],
                    processes);
        }
    }

    /** The memory lines of /proc/&lt;pid&gt;/status, MiB (NaN when missing). */
    public record Memory(double rssMb, double maxRssMb) {
    }

    /** Samples the process {@code pid} alone. */
    public ProcessSampler(long pid) {
        this(pid, false);
    }

    private ProcessSampler(long pid, boolean tree) {
        this.pid = pid;
        this.tree = tree;
        this.machineCpus = MachineCpu.cpus();
        this.previous = read();
        this.last = previous;
        this.jit = new JitCompilerCpu(pid);
        this.jitPreviousNanos = jit.readNanos();
    }

    /** Samples {@code pid} with every process under it, as one. */
    public static ProcessSampler tree(long pid) {
        return new ProcessSampler(pid, true);
    }

    public long pid() {
        return pid;
    }

    public boolean isTree() {
        return tree;
    }

    /** The CPU counters now: the process's, or the tree's (never below the last reading: see {@link ProcessTree}). */
    private ProcessCpu.Sample read() {
        if (!tree) {
            return ProcessCpu.read(pid);
        }
        long wall = System.nanoTime();
        ProcessTree.Reading r = ProcessTree.read(pid);
        if (r == null) {
            treePids = List.of();
            return null;
        }
        treePids = r.pids();
        long user = r.userNanos();
        long system = r.systemNanos();
        if (previous != null) {
            user = Math.max(user, previous.userNanos());
            system = Math.max(system, previous.systemNanos());
        }
        return new ProcessCpu.Sample(pid, user, system, wall, r.threads());
    }

    private Memory treeMemory() {
        long now = System.nanoTime();
        if (!treeMemoryRead || now - treeMemoryReadNanos >= TREE_MEMORY_EVERY_SECONDS * 1_000_000_000L) {
            double mb = ProcessTree.proportionalSetMb(treePids);
            if (!Double.isNaN(mb)) {
                double peak = Double.isNaN(treeMemory.maxRssMb()) ? mb : Math.max(mb, treeMemory.maxRssMb());
                treeMemory = new Memory(mb, peak);
                treeMemoryRead = true;
                treeMemoryReadNanos = now;
            }
        }
        return treeMemory;
    }

    public Reading sample() {
        ProcessCpu.Sample now = read();
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
        Memory memory = now == null ? new Memory(Double.NaN, Double.NaN) : tree ? treeMemory() : memory(pid);
        int processes = now == null ? 0 : tree ? treePids.size() : 1;
        return new Reading(cpu, user, system, cpu / machineCpus, memory.rssMb(), memory.maxRssMb(),
                now == null ? 0 : now.threads(), now != null, jitPercent, processes);
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
        return Long.parseLong(ProcWords.of(value)[0]);
    }
}

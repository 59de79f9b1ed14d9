package perflab.monitor;

import perflab.core.os.MachineCpu;
import perflab.core.os.ProcessCpu;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The run's resource monitor, sampled once a second (and at the run's start and end) by one thread: the run's
 * named processes (the SUT, when perflab started it, and its companions), the whole machine's CPU, and the
 * network interface that carries the traffic. Each {@link #sample()} gives that second's figures; every sample is also kept in bounded
 * timelines, so that {@link #window} reads off the figures of the measured window afterwards.
 * <p>
 * A group names processes that are one thing to the run: the SUT run as several instances ({@code sut-0},
 * {@code sut-1}) is the group {@code sut}, whose reading and window are the sums of its members', so that every
 * figure computed from "the SUT" (CPU per request, RSS) covers all of them.
 */
public final class RunMonitor {
    private static final int USER_NS = 0;
    private static final int SYSTEM_NS = 1;
    private static final int RSS_KB = 2;
    private static final int HWM_KB = 3;
    private static final int THREADS = 4;
    private static final int JIT_NS = 5;
    private static final int PROCESSES = 6;
    private static final int BUSY = 0;
    private static final int TOTAL = 1;
    private static final int BYTES_IN = 0;
    private static final int PACKETS_IN = 1;
    private static final int BYTES_OUT = 2;
    private static final int PACKETS_OUT = 3;

    /** The process perflab measures the workload's server by; the others are its companions. */
    public static final String SUT = perflab.core.workload.SutInstances.SUT;

    private final Map<String, ProcessSampler> processes = new LinkedHashMap<>();
    private final Map<String, CounterTimeline> timelines = new LinkedHashMap<>();
    private final Map<String, List<String>> groups = new LinkedHashMap<>();
    private final String iface;
    private final int machineCpus;
    private final CounterTimeline machineTimeline = new CounterTimeline(2);
    private final CounterTimeline netTimeline = new CounterTimeline(4);
    private MachineCpu.Sample machinePrevious;
    private NetworkCounters.Sample netPrevious;
    private long netPreviousNanos;

    /** One second's figures by process name; NaN (or a missing process) for what is not monitored or not yet known. */
    public record Second(Map<String, ProcessSampler.Reading> processes, double machineCpuPercent,
                         double packetsInPerSec, double packetsOutPerSec, double bytesInPerSec, double bytesOutPerSec) {
        /** The SUT's reading, or null when there is no SUT process. */
        public ProcessSampler.Reading sut() {
            return processes.get(SUT);
        }
    }

    /**
     * A process over a window.
     *
     * @param cpuPercentOfMachine cpu seconds / (window seconds x the machine's CPUs), %
     * @param rssMb               mean of the per-second RSS samples in the window
     * @param maxRssMb            VmHWM at the window's end: the peak RSS since the SUT started
     * @param threads             most threads seen in a sample in the window
     * @param jitCpuSeconds       CPU of the JIT compiler threads in the window (part of cpuSeconds); NaN when
     *                            unknown
     * @param processes           most processes in a sample in the window (1, or a tree's members)
     */
    public record SutWindow(double cpuSeconds, double userSeconds, double systemSeconds, double cpuPercentOfMachine,
                            double rssMb, double maxRssMb, int threads, double jitCpuSeconds, int processes) {
        /**
         * Several processes' windows as one: CPU, RSS and threads add up; the peak RSS is the sum of the peaks (an
         * upper bound: they need not peak together); the JIT is NaN only when no member's is known.
         */
        public static SutWindow sum(List<SutWindow> windows) {
            double cpu = 0;
            double user = 0;
            double system = 0;
            double share = 0;
            double rss = 0;
            double maxRss = 0;
            int threads = 0;
            double jit = Double.NaN;
            int processes = 0;
            for (SutWindow w : windows) {
                cpu += w.cpuSeconds;
                user += w.userSeconds;
                system += w.systemSeconds;
                share += w.cpuPercentOfMachine;
                rss += w.rssMb;
                maxRss += w.maxRssMb;
                threads += w.threads;
                jit = Double.isNaN(w.jitCpuSeconds) ? jit : (Double.isNaN(jit) ? 0 : jit) + w.jitCpuSeconds;
                processes += w.processes;
            }
            return new SutWindow(cpu, user, system, share, rss, maxRss, threads, jit, processes);
        }
    }

    /** Per-second rates of the interface's counters over a window. */
    public record NetworkWindow(String iface, double packetsInPerSec, double packetsOutPerSec, double bytesInPerSec,
                                double bytesOutPerSec) {
    }

    /**
     * @param processes        by name, each process sampled at least twice; an unset {@code machineCpuPercent} is NaN
     * @param network          null when the interface is unknown
     * @param machineCpuPercent the whole machine's busy share of all its CPUs in the window, %
     */
    public record Window(Map<String, SutWindow> processes, double machineCpuPercent, NetworkWindow network) {
        /** The SUT's window, or null when there is no SUT process. */
        public SutWindow sut() {
            return processes.get(SUT);
        }
    }

    /**
     * @param sutPid the SUT's pid, or -1 when perflab did not start it
     * @param iface  the network interface that carries the traffic (see {@link NetworkCounters#interfaceFor}),
     *               or null
     */
    public RunMonitor(long sutPid, String iface) {
        this(sutPid > 0 ? Map.of(SUT, sutPid) : Map.of(), iface);
    }

    /** @param pids the processes to watch by name, in the order they are reported ({@link #SUT} for the SUT) */
    public RunMonitor(Map<String, Long> pids, String iface) {
        this(pids, Set.of(), iface);
    }

    /**
     * @param pids  the processes to watch by name, in the order they are reported ({@link #SUT} for the SUT)
     * @param trees the names among them sampled with every process under them ({@link ProcessSampler#tree})
     */
    public RunMonitor(Map<String, Long> pids, Set<String> trees, String iface) {
        this(pids, trees, Map.of(), iface);
    }

    /**
     * @param groups names reported as the sum of these members' figures (members among {@code pids}), such as
     *               {@link #SUT} for the instances of a SUT run as several JVMs
     */
    public RunMonitor(Map<String, Long> pids, Set<String> trees, Map<String, List<String>> groups, String iface) {
        groups.forEach((name, members) -> {
            if (pids.containsKey(name)) {
                throw new IllegalArgumentException("group " + name + " has the name of a process");
            }
            this.groups.put(name, List.copyOf(members));
        });
        pids.forEach((name, pid) -> {
            if (pid > 0) {
                processes.put(name, trees.contains(name) ? ProcessSampler.tree(pid) : new ProcessSampler(pid));
                timelines.put(name, new CounterTimeline(7));
            }
        });
        this.iface = iface != null && NetworkCounters.read(iface) != null ? iface : null;
        this.machineCpus = MachineCpu.cpus();
    }

    /**
     * Watches one more process from now on, as {@code name}: a SUT instance started again mid-run (a fail-over run's
     * restart) is a process of its own, with counters from 0, so its figures start with it and never mix with those
     * of the life before. A member of {@code group} (null: none) from now on.
     */
    public synchronized void watch(String name, long pid, String group) {
        watch(name, pid, group, false);
    }

    /** {@link #watch(String, long, String)}, with every process under it when {@code tree} ({@link ProcessSampler#tree}). */
    public synchronized void watch(String name, long pid, String group, boolean tree) {
        if (processes.containsKey(name) || groups.containsKey(name)) {
            throw new IllegalArgumentException(name + " is watched already");
        }
        processes.put(name, tree ? ProcessSampler.tree(pid) : new ProcessSampler(pid));
        timelines.put(name, new CounterTimeline(7));
        if (group != null) {
            List<String> members = new ArrayList<>(groups.getOrDefault(group, List.of()));
            members.add(name);
            groups.put(group, List.copyOf(members));
        }
    }

    /** The monitored interface, or null. */
    public String networkInterface() {
        return iface;
    }

    public int machineCpus() {
        return machineCpus;
    }

    /** Samples everything now; the first call's rates are NaN. */
    public synchronized Second sample() {
        long now = System.currentTimeMillis();
        Map<String, ProcessSampler.Reading> readings = new LinkedHashMap<>();
        processes.forEach((name, process) -> readings.put(name, sample(process, timelines.get(name), now)));
        groups.forEach((name, members) -> {
            List<ProcessSampler.Reading> of = new ArrayList<>();
            members.forEach(m -> {
                if (readings.containsKey(m)) {
                    of.add(readings.get(m));
                }
            });
            if (!of.isEmpty()) {
                readings.put(name, ProcessSampler.Reading.sum(of));
            }
        });
        MachineCpu.Sample machine = MachineCpu.read();
        double machinePercent = MachineCpu.percentBusy(machinePrevious, machine);
        if (machine != null) {
            machineTimeline.add(now, machine.busyTicks(), machine.totalTicks());
            machinePrevious = machine;
        }
        double pin = Double.NaN;
        double pout = Double.NaN;
        double bin = Double.NaN;
        double bout = Double.NaN;
        if (iface != null) {
            long nanos = System.nanoTime();
            NetworkCounters.Sample net = NetworkCounters.read(iface);
            if (net != null) {
                if (netPrevious != null && nanos > netPreviousNanos) {
                    double s = (nanos - netPreviousNanos) / 1e9;
                    pin = (net.packetsIn() - netPrevious.packetsIn()) / s;
                    pout = (net.packetsOut() - netPrevious.packetsOut()) / s;
                    bin = (net.bytesIn() - netPrevious.bytesIn()) / s;
                    bout = (net.bytesOut() - netPrevious.bytesOut()) / s;
                }
                netTimeline.add(now, net.bytesIn(), net.packetsIn(), net.bytesOut(), net.packetsOut());
                netPrevious = net;
                netPreviousNanos = nanos;
            }
        }
        return new Second(Collections.unmodifiableMap(readings), machinePercent, pin, pout, bin, bout);
    }

    private static ProcessSampler.Reading sample(ProcessSampler process, CounterTimeline timeline, long now) {
        ProcessSampler.Reading reading = process.sample();
        ProcessCpu.Sample cpu = process.lastCpu();
        if (cpu != null) {
            // never read (not a HotSpot JVM, no /proc) is kept as 0, and a window whose counter stayed 0 reads NaN
            timeline.add(now, cpu.userNanos(), cpu.systemNanos(), kb(reading.rssMb()), kb(reading.maxRssMb()), cpu.threads(),
                    Math.max(0, process.lastJitNanos()), reading.processes());
        }
        return reading;
    }

    /** The figures of a wall-clock window, from the samples taken so far. */
    public synchronized Window window(long fromEpochMs, long toEpochMs) {
        Map<String, SutWindow> windows = new LinkedHashMap<>();
        timelines.forEach((name, timeline) -> {
            SutWindow w = processWindow(timeline, fromEpochMs, toEpochMs);
            if (w != null) {
                windows.put(name, w);
            }
        });
        groups.forEach((name, members) -> {
            List<SutWindow> of = members.stream().filter(windows::containsKey).map(windows::get).toList();
            if (!of.isEmpty()) {
                windows.put(name, SutWindow.sum(of));
            }
        });
        double machinePercent = Double.NaN;
        double busy = machineTimeline.increase(BUSY, fromEpochMs, toEpochMs);
        double total = machineTimeline.increase(TOTAL, fromEpochMs, toEpochMs);
        if (total > 0) {
            machinePercent = 100 * busy / total;
        }
        NetworkWindow network = null;
        double covered = netTimeline.coveredSeconds(fromEpochMs, toEpochMs);
        if (iface != null && covered > 0) {
            network = new NetworkWindow(iface,
                    netTimeline.increase(PACKETS_IN, fromEpochMs, toEpochMs) / covered,
                    netTimeline.increase(PACKETS_OUT, fromEpochMs, toEpochMs) / covered,
                    netTimeline.increase(BYTES_IN, fromEpochMs, toEpochMs) / covered,
                    netTimeline.increase(BYTES_OUT, fromEpochMs, toEpochMs) / covered);
        }
        return new Window(Collections.unmodifiableMap(windows), machinePercent, network);
    }

    private SutWindow processWindow(CounterTimeline timeline, long fromEpochMs, long toEpochMs) {
        if (timeline.size() < 2) {
            return null;
        }
        double user = timeline.increase(USER_NS, fromEpochMs, toEpochMs) / 1e9;
        double system = timeline.increase(SYSTEM_NS, fromEpochMs, toEpochMs) / 1e9;
        double seconds = (toEpochMs - fromEpochMs) / 1000.0;
        return new SutWindow(user + system, user, system,
                seconds > 0 ? 100 * (user + system) / (seconds * machineCpus) : Double.NaN,
                timeline.mean(RSS_KB, fromEpochMs, toEpochMs) / 1024.0,
                timeline.last(HWM_KB, toEpochMs) / 1024.0,
                (int) timeline.max(THREADS, fromEpochMs, toEpochMs),
                timeline.max(JIT_NS, fromEpochMs, toEpochMs) > 0
                        ? timeline.increase(JIT_NS, fromEpochMs, toEpochMs) / 1e9 : Double.NaN,
                (int) timeline.max(PROCESSES, fromEpochMs, toEpochMs));
    }

    private static long kb(double mb) {
        return Double.isNaN(mb) ? 0 : Math.round(mb * 1024);
    }
}

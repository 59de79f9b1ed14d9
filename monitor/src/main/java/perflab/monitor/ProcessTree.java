package perflab.monitor;

import perflab.core.os.ProcWords;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * A process and all its descendants read from /proc as one: a server whose work happens in child processes
 * (PostgreSQL's postmaster forks a backend per connection) is only measured whole.
 *
 * <p>CPU: each live member's own time plus the time of its children that have exited and been waited for
 * (utime + stime + cutime + cstime). A backend that exits moves from its own counters into its parent's
 * cutime/cstime when the parent reaps it, so the sum keeps growing as the tree changes. Members are read parent
 * before child, so a child reaped between the two reads is missed once (never counted twice); the sampler keeps
 * the counters monotonic, which turns that brief dip into a pause until the next read.
 *
 * <p>Children come from {@code /proc/<pid>/task/<tid>/children} (every thread's: a JVM starts its children from
 * any thread); on a kernel without those files, from one scan of every process's parent.
 */
final class ProcessTree {
    /** USER_HZ, as in {@link perflab.core.os.ProcessCpu}. */
    private static final long NANOS_PER_TICK = 10_000_000L;
    private static final Path PROC = Path.of("/proc");

    private ProcessTree() {
    }

    /**
     * One reading of the tree.
     *
     * @param userNanos   user CPU of the members and their reaped children
     * @param systemNanos system CPU of the same
     * @param threads     the members' threads, summed
     * @param pids        the members, the root first, each parent before its children
     */
    record Reading(long userNanos, long systemNanos, int threads, List<Long> pids) {
        int processes() {
            return pids.size();
        }
    }

    /** The tree under {@code root} now, or null when the root is gone. */
    static Reading read(long root) {
        return read(root, Files.isRegularFile(childrenFile(root, root)) ? CHILDREN_FROM_TASKS : scanParents());
    }

    private static final LongFunction<List<Long>> CHILDREN_FROM_TASKS = ProcessTree::childrenFromTasks;

    /** The same, with children found by a scan of every process's parent (for kernels without children files). */
    static Reading readByScan(long root) {
        return read(root, scanParents());
    }

    private static Reading read(long root, LongFunction<List<Long>> children) {
        long user = 0;
        long system = 0;
        int threads = 0;
        List<Long> members = new ArrayList<>();
        Deque<Long> queue = new ArrayDeque<>();
        queue.add(root);
        while (!queue.isEmpty()) {
            long pid = queue.poll();
            long[] stat = stat(pid);
            if (stat == null) {
                if (pid == root) {
                    return null;
                }
                continue; // exited since it was listed: its time is in its parent's cutime by now, or next time
            }
            user += stat[0] + stat[2];
            system += stat[1] + stat[3];
            threads += (int) stat[4];
            members.add(pid);
            // a process of one thread (a PostgreSQL backend) has its children in one file: no task listing to read
            queue.addAll(stat[4] == 1 && children == CHILDREN_FROM_TASKS ? childrenOfThread(pid, pid) : children.apply(pid));
        }
        return new Reading(user * NANOS_PER_TICK, system * NANOS_PER_TICK, threads, List.copyOf(members));
    }

    /** utime, stime, cutime, cstime (ticks) and num_threads of a process, or null when it is gone. */
    static long[] stat(long pid) {
        String stat;
        try {
            stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"));
        } catch (IOException e) {
            return null;
        }
        // the command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 > stat.length()) {
            return null;
        }
        String[] f = stat.substring(close + 2).trim().split(" ");
        // f[0] is field 3 (state); utime 14, stime 15, cutime 16, cstime 17, num_threads 20
        try {
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]),
                    Long.parseLong(f[14]), Long.parseLong(f[17])};
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Path childrenFile(long pid, long tid) {
        return PROC.resolve(Long.toString(pid)).resolve("task").resolve(Long.toString(tid)).resolve("children");
    }

    /** The children every thread of {@code pid} started. */
    private static List<Long> childrenFromTasks(long pid) {
        List<Long> children = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(PROC.resolve(Long.toString(pid)).resolve("task"))) {
            for (Path task : tasks) {
                children.addAll(childrenOfThread(pid, Long.parseLong(task.getFileName().toString())));
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone: no children to follow
        }
        return children;
    }

    /** The children thread {@code tid} of {@code pid} started; none when it has ended. */
    private static List<Long> childrenOfThread(long pid, long tid) {
        String list;
        try {
            list = Files.readString(childrenFile(pid, tid));
        } catch (IOException e) {
            return List.of(); // the thread ended
        }
        List<Long> children = new ArrayList<>();
        for (String word : ProcWords.of(list)) {
            children.add(Long.parseLong(word));
        }
        return children;
    }

    /** Every process's children, from one pass over /proc/[pid]/stat (field 4 is the parent). */
    private static LongFunction<List<Long>> scanParents() {
        Map<Long, List<Long>> byParent = new HashMap<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(PROC, p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path dir : all) {
                try {
                    String stat = Files.readString(dir.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long parent = Long.parseLong(f[1]);
                    byParent.computeIfAbsent(parent, k -> new ArrayList<>()).add(Long.parseLong(dir.getFileName().toString()));
                } catch (IOException | RuntimeException e) {
                    // gone while listed
                }
            }
        } catch (IOException e) {
            // no /proc: no children
        }
        return pid -> byParent.getOrDefault(pid, List.of());
    }

    /**
     * The proportional set size of the members summed, MiB: each process's private pages plus its share of pages
     * it shares, so that memory shared by every backend (PostgreSQL's shared buffers) counts once, not once per
     * backend as summed RSS would (60 backends over 200 MB of shared buffers: 10 GB of RSS, 340 MB of PSS). From
     * {@code smaps_rollup} (Linux 4.14); VmRSS where that is missing. NaN when no member could be read.
     */
    static double proportionalSetMb(List<Long> pids) {
        long kb = 0;
        int read = 0;
        for (long pid : pids) {
            long pss = pssKb(pid);
            if (pss >= 0) {
                kb += pss;
                read++;
            }
        }
        return read == 0 ? Double.NaN : kb / 1024.0;
    }

    private static long pssKb(long pid) {
        Path dir = PROC.resolve(Long.toString(pid));
        try {
            for (String line : Files.readAllLines(dir.resolve("smaps_rollup"))) {
                if (line.startsWith("Pss:")) {
                    return Long.parseLong(line.substring(4).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            double rss = ProcessSampler.rssMb(pid);
            return Double.isNaN(rss) ? -1 : Math.round(rss * 1024);
        }
        return -1;
    }
}

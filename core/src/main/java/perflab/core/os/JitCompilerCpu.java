package perflab.core.os;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * CPU time spent by a HotSpot JVM's JIT compiler threads ("C1 CompilerThread0", "C2 CompilerThread0"; Linux
 * keeps the first 15 characters of a thread's name), read from /proc/&lt;pid&gt;/task/&lt;tid&gt;/stat.
 *
 * <p>Why it is measured: a compiler still busy in the measured window means part of the code measured ran
 * interpreted. On a machine with few CPUs and many busy request threads the compiler threads get only their
 * share of the CPUs, so a hot method can wait in the compile queue for many seconds while the interpreted
 * code takes the CPU the compiler needs — a run that lands there costs several times more per request than
 * one that does not (seen on the claims back end: 10 ms instead of 1.5 ms per 100 KB request). The compiler's
 * CPU in the window is the evidence.
 *
 * <p>Compiler threads come and go (HotSpot adds and retires them with the queue's length), so the total is
 * kept per thread: a retired thread's last reading still counts. Not thread-safe: one sampling thread.
 */
public final class JitCompilerCpu {
    private final Path tasks;
    /** Each thread seen: its last CPU reading in ticks, or -1 when it is not a compiler thread. */
    private final Map<Long, Long> threads = new HashMap<>();

    public JitCompilerCpu(long pid) {
        this(Path.of("/proc", Long.toString(pid), "task"));
    }

    /** Reads a task directory laid out as /proc/&lt;pid&gt;/task (a test builds one it controls). */
    JitCompilerCpu(Path tasks) {
        this.tasks = tasks;
    }

    /** Whether a thread name (as /proc shows it) is a HotSpot JIT compiler thread's. */
    static boolean isCompilerThread(String comm) {
        return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre");
    }

    /**
     * The compiler threads' CPU time (user + system) since the JVM started, in nanoseconds, 10 ms resolution;
     * -1 when the process is gone or /proc is not there.
     */
    public long readNanos() {
        Set<Long> present = new HashSet<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                long tid;
                try {
                    tid = Long.parseLong(task.getFileName().toString());
                } catch (NumberFormatException e) {
                    continue;
                }
                present.add(tid);
                Long last = threads.get(tid);
                if (last == null) {
                    String comm = readOrNull(task.resolve("comm"));
                    if (comm == null) {
                        continue; // the thread ended between the listing and the read
                    }
                    last = isCompilerThread(comm.strip()) ? 0L : -1L;
                    threads.put(tid, last);
                }
                if (last >= 0) {
                    long ticks = ticks(readOrNull(task.resolve("stat")));
                    if (ticks >= 0) {
                        threads.put(tid, ticks);
                    }
                }
            }
        } catch (NoSuchFileException e) {
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        // other threads are forgotten when they end (a long soak with thread churn would otherwise grow the map);
        // compiler threads are kept, their CPU still counts
        threads.entrySet().removeIf(e -> e.getValue() < 0 && !present.contains(e.getKey()));
        long total = 0;
        for (long ticks : threads.values()) {
            if (ticks > 0) {
                total += ticks;
            }
        }
        return total * ProcessCpu.NANOS_PER_TICK;
    }

    /** The compiler threads seen so far (retired ones included). */
    public int compilerThreads() {
        int n = 0;
        for (long ticks : threads.values()) {
            if (ticks >= 0) {
                n++;
            }
        }
        return n;
    }

    /** Whether the reader holds an entry for a thread (visible for tests: ended non-compiler threads are dropped). */
    boolean knows(long tid) {
        return threads.containsKey(tid);
    }

    /** utime + stime of a /proc stat line, or -1. */
    static long ticks(String stat) {
        long[] fields = stat == null ? null : ProcessCpu.statFields(stat);
        return fields == null ? -1 : fields[0] + fields[1];
    }

    private static String readOrNull(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return null;
        }
    }
}

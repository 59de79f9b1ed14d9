package perflab.core.os;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.Poll;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitCompilerCpuTest {

    @Test
    void compilerThreadsAreKnownByTheirTruncatedNames() {
        assertTrue(JitCompilerCpu.isCompilerThread("C2 CompilerThre"));
        assertTrue(JitCompilerCpu.isCompilerThread("C1 CompilerThre"));
        assertFalse(JitCompilerCpu.isCompilerThread("VM Thread"));
        assertFalse(JitCompilerCpu.isCompilerThread("qtp12345-17"));
    }

    @Test
    void ticksAreUserPlusSystemEvenWhenTheNameHoldsSpacesAndParentheses() {
        String stat = "4242 (C2 (Compiler) x) S 1 2 3 4 5 6 7 8 9 10 150 25 0 0 20 0 1 0 100 0 0";
        assertEquals(175, JitCompilerCpu.ticks(stat));
        assertEquals(-1, JitCompilerCpu.ticks("garbage"));
        assertEquals(-1, JitCompilerCpu.ticks(null));
    }

    @Test
    void thisJvmsCompilerThreadsAreFoundAndTheirCpuNeverDecreases() {
        JitCompilerCpu jit = new JitCompilerCpu(ProcessHandle.current().pid());
        long first = jit.readNanos();
        assertTrue(first >= 0, "read " + first);
        // a JVM with the default tiered compilation has at least one C1 and one C2 thread
        assertTrue(jit.compilerThreads() >= 2, "compiler threads " + jit.compilerThreads());
        long sum = 0;
        for (int i = 0; i < 2_000_000; i++) {
            sum += Integer.toString(i).hashCode(); // work for the JIT
        }
        long second = jit.readNanos();
        assertTrue(second >= first, first + " then " + second + " (" + sum + ")");
    }

    /**
     * On a task tree the test lays out itself (not this JVM's, whose own threads come and go: compiler threads
     * with UseDynamicNumberOfCompilerThreads, GC workers), so every thread seen is one the test made.
     */
    @Test
    void endedThreadsAreForgottenButRetiredCompilerThreadsKeepTheirCpu(@TempDir Path tasks) throws IOException {
        task(tasks, 10, "C1 CompilerThre", 100, 0);
        task(tasks, 11, "C2 CompilerThre", 50, 10);
        task(tasks, 20, "qtp12345-17", 900, 90);
        task(tasks, 21, "main", 300, 30);
        JitCompilerCpu jit = new JitCompilerCpu(tasks);
        assertEquals(160 * ProcessCpu.NANOS_PER_TICK, jit.readNanos(), "only the compiler threads count");
        assertEquals(2, jit.compilerThreads());

        // C2 thread 11 retires and request thread 20 ends; C1 thread 10 compiles on
        deleteTask(tasks, 11);
        deleteTask(tasks, 20);
        task(tasks, 10, "C1 CompilerThre", 120, 5);
        assertEquals((125 + 60) * ProcessCpu.NANOS_PER_TICK, jit.readNanos(), "a retired compiler's CPU still counts");
        assertFalse(jit.knows(20), "an ended request thread is forgotten");
        assertTrue(jit.knows(21), "a running thread is kept");
        assertTrue(jit.knows(11), "a retired compiler thread is kept");
        assertEquals(2, jit.compilerThreads());
    }

    /** The same on this JVM's real /proc, asserting only on the threads the test started itself. */
    @Test
    void thisJvmsEndedThreadsAreForgotten() throws Exception {
        Path self = Path.of("/proc/self/task");
        CountDownLatch started = new CountDownLatch(4);
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> parked = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    // ends the thread
                }
            }, "jitcpu-park-" + i); // Linux shows the first 15 characters of a Java thread's name as its comm
            t.start();
            parked.add(t);
        }
        assertTrue(started.await(30, TimeUnit.SECONDS), "parked threads started");
        List<Long> tids = tidsNamed(self, "jitcpu-park-");
        assertEquals(4, tids.size(), "the parked threads are visible in /proc by name");
        JitCompilerCpu jit = new JitCompilerCpu(ProcessHandle.current().pid());
        jit.readNanos();
        for (long tid : tids) {
            assertTrue(jit.knows(tid), "thread " + tid + " seen");
        }
        release.countDown();
        for (Thread t : parked) {
            t.join();
        }
        // join() returns when the Java thread is done; the kernel task may linger a moment longer
        for (long tid : tids) {
            Path dir = self.resolve(Long.toString(tid));
            Poll.until("task " + tid + " to leave " + self + " after its thread ended", Duration.ofSeconds(30),
                    () -> !Files.exists(dir));
        }
        jit.readNanos();
        for (long tid : tids) {
            assertFalse(jit.knows(tid), "ended thread " + tid + " forgotten");
        }
    }

    private static List<Long> tidsNamed(Path tasks, String prefix) throws IOException {
        List<Long> tids = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                try {
                    if (Files.readString(task.resolve("comm")).startsWith(prefix)) {
                        tids.add(Long.parseLong(task.getFileName().toString()));
                    }
                } catch (IOException e) {
                    // a thread that ended meanwhile is not one of ours: ours are parked
                }
            }
        }
        return tids;
    }

    private static void task(Path tasks, long tid, String comm, long utime, long stime) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(Long.toString(tid)));
        Files.writeString(dir.resolve("comm"), comm + "\n");
        Files.writeString(dir.resolve("stat"), tid + " (" + comm + ") S 1 2 3 4 5 6 7 8 9 10 " + utime + " " + stime
                + " 0 0 20 0 1 0 100 0 0\n");
    }

    private static void deleteTask(Path tasks, long tid) throws IOException {
        Path dir = tasks.resolve(Long.toString(tid));
        Files.delete(dir.resolve("comm"));
        Files.delete(dir.resolve("stat"));
        Files.delete(dir);
    }

    @Test
    void aGoneProcessReadsAsUnknown() {
        assertEquals(-1, new JitCompilerCpu(Integer.MAX_VALUE).readNanos());
    }
}

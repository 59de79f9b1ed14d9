package perflab.core.os;

import org.junit.jupiter.api.Test;

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

    @Test
    void endedThreadsAreForgottenButCompilerThreadsAreKept() throws Exception {
        JitCompilerCpu jit = new JitCompilerCpu(ProcessHandle.current().pid());
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.List<Thread> parked = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Thread t = new Thread(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    // ends the thread
                }
            });
            t.start();
            parked.add(t);
        }
        jit.readNanos();
        int withParked = jit.threadsKnown();
        int compilers = jit.compilerThreads();
        release.countDown();
        for (Thread t : parked) {
            t.join();
        }
        jit.readNanos();
        assertTrue(jit.threadsKnown() <= withParked - 20 + 3, "known " + jit.threadsKnown() + ", with the 20 parked "
                + withParked);
        assertTrue(jit.compilerThreads() >= compilers, "compiler threads are never forgotten");
    }

    @Test
    void aGoneProcessReadsAsUnknown() {
        assertEquals(-1, new JitCompilerCpu(Integer.MAX_VALUE).readNanos());
    }
}

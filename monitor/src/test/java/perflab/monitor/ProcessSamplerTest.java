package perflab.monitor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.core.os.JitCompilerCpu;
import perflab.core.os.MachineCpu;
import perflab.core.os.ProcessCpu;
import perflab.testsupport.Poll;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProcessSamplerTest {
    /**
     * A child JVM spinning one thread for 2 s reads about one core: 100 % when the thread has a core to itself.
     * On a loaded machine (other builds on these 2 cores) the thread gets less than a core, and the sampler must
     * then read what it really got: the reading is compared with the share the spinning thread's own CPU
     * clock (ThreadMXBean, not /proc) gives over the sampler's interval, within -10 / +15 points (the 10 ms
     * ticks of /proc, and the JVM's other threads, interpreted with -Xint so that no JIT thread adds CPU).
     */
    @Test
    void aJvmThatCompilesEverythingShowsItsCompilerThreadsCpu() throws Exception {
        // -Xcomp compiles every method before its first run: the compiler threads work for seconds at start-up
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xcomp", "-XX:+UseSerialGC", "-Xmx32m", "-cp", System.getProperty("java.class.path"),
                Spinner.class.getName()).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
            assertEquals("READY", out.readLine());
            JitCompilerCpu jit = new JitCompilerCpu(child.pid());
            long nanos = jit.readNanos();
            assertTrue(jit.compilerThreads() >= 1, "compiler threads " + jit.compilerThreads());
            assertTrue(nanos >= 50_000_000L, "compiler CPU at start-up under -Xcomp: " + nanos / 1e6 + " ms");
            var all = ProcessCpu.read(child.pid());
            assertTrue(nanos <= all.totalNanos(), "part of the process's CPU: " + nanos + " of " + all.totalNanos());
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void childSpinningOneThreadReadsAboutOneCore() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xint", "-XX:+UseSerialGC", "-Xmx32m", "-cp", System.getProperty("java.class.path"),
                Spinner.class.getName()).redirectErrorStream(true).start();
        ProcessSampler.Reading r;
        double threadShare;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
            assertEquals("READY", out.readLine());
            awaitIdle(child.pid()); // past the JVM's start-up work, which would count as the spinning thread's
            long t0 = System.nanoTime();
            ProcessSampler sampler = new ProcessSampler(child.pid());
            OutputStream in = child.getOutputStream();
            in.write("2000\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
            String spun = out.readLine();
            r = sampler.sample();
            long wall = System.nanoTime() - t0;
            assertTrue(spun.startsWith("SPUN "), spun);
            threadShare = 100.0 * Long.parseLong(spun.substring(5)) / wall;
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
        String what = "sampler " + r + ", spinning thread's own share " + threadShare + " %";
        assertTrue(r.alive());
        assertTrue(r.cpuPercent() > threadShare - 10 && r.cpuPercent() < threadShare + 15, what);
        assertTrue(r.cpuPercent() < 140, what);
        if (threadShare > 90) { // the thread had a core: the sampler reads about one core
            assertTrue(r.cpuPercent() > 80, what);
        }
        assertEquals(r.cpuPercent(), r.userPercent() + r.systemPercent(), 1e-6);
        assertTrue(r.userPercent() > r.systemPercent(), "spinning is user time: " + what);
        assertEquals(r.cpuPercent() / MachineCpu.cpus(), r.cpuPercentOfMachine(), 1e-6);
        assertTrue(r.threads() > 2, "the JVM's threads: " + r);
        assertTrue(r.rssMb() > 5 && r.maxRssMb() >= r.rssMb(), "rss and its peak: " + r);
        assertEquals(0.0, r.jitCpuPercent(), "an interpreter-only JVM (-Xint) has no compiler threads: " + r);
        System.out.println("ProcessSamplerTest: " + what);

        ProcessSampler.Reading gone = new ProcessSampler(child.pid()).sample();
        assertFalse(gone.alive());
        assertTrue(Double.isNaN(gone.cpuPercent()));
    }

    /**
     * Waits until {@code pid}'s CPU clock has stood still for 100 ms: its start-up work done, it waits on its
     * stdin. A fixed pause is too short when a busy machine slows the start-up down.
     */
    private static void awaitIdle(long pid) throws InterruptedException {
        long[] moved = {ProcessCpu.read(pid).totalNanos(), System.nanoTime()}; // its CPU time, and when that last grew
        Poll.until("the child to use no CPU for 100 ms (ms since it last did)", Duration.ofSeconds(30), () -> {
            long cpu = ProcessCpu.read(pid).totalNanos();
            if (cpu != moved[0]) {
                moved[0] = cpu;
                moved[1] = System.nanoTime();
            }
            return (System.nanoTime() - moved[1]) / 1_000_000;
        }, stillMs -> stillMs >= 100);
    }
}

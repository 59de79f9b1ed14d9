package perflab.monitor;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Child JVM of {@link ProcessSamplerTest}: prints READY, spins its main thread for the milliseconds given on
 * its stdin, prints {@code SPUN <the thread's own CPU ns>} (the thread CPU clock, not /proc), then idles until
 * its stdin closes.
 */
public final class Spinner {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("READY");
        System.out.flush();
        long ms = Long.parseLong(in.readLine().trim());
        long cpuStart = threads.getCurrentThreadCpuTime();
        long end = System.nanoTime() + ms * 1_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10_000; i++) { // arithmetic between clock reads: user time, whatever the clock source
                x += x * 31 + 7;
            }
        }
        sink = x;
        System.out.println("SPUN " + (threads.getCurrentThreadCpuTime() - cpuStart));
        System.out.flush();
        while (in.readLine() != null) {
            // idle until the parent closes stdin
        }
    }
}

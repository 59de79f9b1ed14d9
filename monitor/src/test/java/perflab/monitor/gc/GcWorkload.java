package perflab.monitor.gc;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Random;

/**
 * The child JVM of the GC tests: allocates (mode {@code alloc}: garbage plus a 16 MB live ring, with an explicit
 * GC now and then) or forces a burst of full GCs (mode {@code burst}: System.gc() in a tight loop for the whole
 * of one wall-clock second), then prints what the JVM itself counted:
 * {@code BEAN name|count|timeMs}, {@code ALLOCATED bytes}, {@code START/END/BEANS_AT epochMs}, {@code BURST epochMs};
 * mode {@code alloc} then collects three times with nothing allocating, between {@code QUIET_START/QUIET_END epochMs}.
 */
public final class GcWorkload {
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        long durationMs = Long.parseLong(args[1]);
        long thread = Thread.currentThread().getId();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Object[] live = null;
        if (mode.equals("alloc")) {
            live = new Object[1000];
            for (int i = 0; i < live.length; i++) {
                live[i] = new byte[16 * 1024];
            }
            // the ring's first copy into the old generation, long on a busy machine, before the measured span: the
            // log's allocation rate is measured between collections, and that pause is not between two of them
            System.gc();
        }
        long allocatedAtStart = threads.getThreadAllocatedBytes(thread);
        long start = System.currentTimeMillis();
        System.out.println("START " + start);
        if (mode.equals("burst")) {
            // Enough small live objects that each full GC takes milliseconds to mark and compact: the time
            // between two System.gc() calls (a safepoint hand-off, which waits for a CPU when the machine is
            // busy) must stay small beside the pauses, or a busy machine splits the second between them.
            Object[][] chain = new Object[200_000][];
            for (int i = 0; i < chain.length; i++) {
                chain[i] = new Object[]{i > 0 ? chain[i - 1] : null, Integer.valueOf(i * 31)};
            }
            sink = chain;
            // Start just after a second boundary so that one whole epoch second is spent collecting.
            long second = (System.currentTimeMillis() / 1000 + 1) * 1000;
            Thread.sleep(Math.max(0, second + 20 - System.currentTimeMillis()));
            System.out.println("BURST " + second);
            while (System.currentTimeMillis() < second + 1000 + durationMs) {
                System.gc();
            }
        } else {
            Random random = new Random(1);
            long end = start + durationMs;
            // and at least 12 heaps' worth, so that young collections come (a dozen or more) however slowly a busy
            // machine lets this thread allocate
            long floor = 12 * Runtime.getRuntime().maxMemory();
            for (int i = 0; System.currentTimeMillis() < end
                    || threads.getThreadAllocatedBytes(thread) - allocatedAtStart < floor; i++) {
                for (int k = 0; k < 1000; k++) {
                    sink = new byte[random.nextInt(2048)];
                }
                live[i % live.length] = new byte[16 * 1024];
                if (i % 3000 == 2999) {
                    System.gc();
                }
            }
            sink = live;
        }
        long endMs = System.currentTimeMillis();
        long allocated = threads.getThreadAllocatedBytes(thread) - allocatedAtStart;
        StringBuilder beans = new StringBuilder();
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            beans.append("BEAN ").append(b.getName()).append('|').append(b.getCollectionCount()).append('|')
                    .append(b.getCollectionTime()).append('\n');
        }
        // Concurrent collectors may still start cycles before the JVM exits: the test cuts the log here.
        long beansAt = System.currentTimeMillis();
        System.out.println("BEANS_AT " + beansAt);
        System.out.print(beans);
        System.out.println("ALLOCATED " + allocated);
        System.out.println("END " + endMs);
        if (mode.equals("alloc")) {
            // A quiet phase: explicit collections with nothing allocating in between, so that what each leaves
            // is the live set alone, however little CPU the collector got (no floating garbage to carry).
            while (System.currentTimeMillis() <= beansAt) {
                Thread.onSpinWait(); // the test cuts the log at BEANS_AT's millisecond: no quiet collection in it
            }
            System.out.println("QUIET_START " + System.currentTimeMillis());
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            System.out.println("QUIET_END " + System.currentTimeMillis());
        }
    }
}

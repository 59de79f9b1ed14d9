package perflab.voicemail.lean.replica;

import perflab.core.process.LocalSockets;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * For bench/voicemail-copy-cost.sh: what one copy costs a replication pair in CPU, apart from the voicemail stack. Both
 * members of a {@link PairGrid} pair run in this JVM (over TCP on loopback, as in a run); one writes replicas of about
 * the size a call's copy has, at a fixed rate from one thread, and the process's CPU over a window, less the idle
 * pair's, is divided by the copies written. Keys are picked by where their primary owner is (a replicated cache sends
 * each write through the key's primary owner): all on the writer ({@code local}), all on the partner ({@code remote}),
 * or as users' ids fall ({@code mixed}, what a run did before {@link CopyKeys}); {@code keyed} writes users' copies as
 * the product does, under the keys {@link CopyKeys} picks.
 * <p>
 * Arguments: rate (copies a second), warm-up seconds, window seconds, then the kinds to measure in order. Prints one
 * line per kind: {@code kind copies cpu-ms us-per-copy}.
 */
public final class CopyCost {
    private CopyCost() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: CopyCost RATE WARM_S WINDOW_S KIND... (KIND: idle, local, remote, mixed, keyed)");
            System.exit(2);
        }
        double rate = Double.parseDouble(args[0]);
        long warmNanos = (long) (Double.parseDouble(args[1]) * 1e9);
        long windowNanos = (long) (Double.parseDouble(args[2]) * 1e9);
        int[] ports = LocalSockets.freePorts(2);
        int portA = ports[0];
        int portB = ports[1];
        try (PairGrid writer = PairGrid.join("copy-cost", "writer", portA, portB);
             PairGrid partner = PairGrid.join("copy-cost", "partner", portB, portA)) {
            long until = System.nanoTime() + 60_000_000_000L;
            while (!(writer.paired() && partner.paired()) && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            if (!writer.paired()) {
                System.err.println("the pair did not form in 60 s");
                System.exit(1);
            }
            byte[] value = new UserReplica("u0", "node0abcdefghijklmnop", "CALLING_LINE", 3,
                    Arrays.asList(null, null, null)).toBytes();
            byte[] sized = Arrays.copyOf(value, Math.max(value.length, 400));
            for (String kind : Arrays.asList(args).subList(3, args.length)) {
                List<String> keys = keys(writer, kind);
                boolean keyed = kind.equals("keyed");
                write(writer, keys, keyed, sized, rate, warmNanos);
                long cpu0 = cpuNanos();
                int copies = write(writer, keys, keyed, sized, kind.equals("idle") ? 0 : rate, windowNanos);
                long cpu = cpuNanos() - cpu0;
                System.out.printf(Locale.ROOT, "%s %d %.1f %.1f%n", kind, copies, cpu / 1e6,
                        copies == 0 ? 0.0 : cpu / 1e3 / copies);
            }
        }
    }

    /** 1,000 users' ids of the kind asked for; none for idle. */
    private static List<String> keys(PairGrid writer, String kind) {
        if (!List.of("idle", "local", "remote", "mixed", "keyed").contains(kind)) {
            throw new IllegalArgumentException("kind " + kind + " is not idle, local, remote, mixed or keyed");
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < 1000 && !kind.equals("idle"); i++) {
            String user = "user" + i;
            if (kind.equals("mixed") || kind.equals("keyed") || kind.equals("local") == writer.primaryHere(user)) {
                keys.add(user);
            }
        }
        return keys;
    }

    /**
     * Writes at {@code rate} a second for {@code nanos}, paced from the start (no catching up after a stall): under
     * the keys as they are, or ({@code keyed}) as users' copies, under the keys the grid picks for them.
     */
    private static int write(PairGrid grid, List<String> keys, boolean keyed, byte[] value, double rate, long nanos) {
        long start = System.nanoTime();
        if (rate <= 0 || keys.isEmpty()) {
            LockSupport.parkNanos(nanos);
            return 0;
        }
        long interval = (long) (1e9 / rate);
        int n = 0;
        for (long next = start; next - start < nanos; next += interval) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            String key = keys.get(n % keys.size());
            if (keyed) {
                grid.put(key, value);
            } else {
                grid.putUnder(key, value);
            }
            n++;
        }
        return n;
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}

package perflab.core.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * The names of the SUT's processes. A SUT run as one JVM is {@code sut}; run as N instances (a cluster on one
 * machine, behind a proxy the workload starts) they are {@code sut-0} .. {@code sut-(N-1)}, and {@code sut} names
 * their sum in the monitor's figures and summary.json. Companions and SIPp loads may take none of these names, and
 * reach an instance's ports as {@code {sut-1.sip}}.
 */
public final class SutInstances {
    /** The SUT's name: the process when there is one, the instances' sum when there are several. */
    public static final String SUT = "sut";
    /** The most instances a run may start: each is a JVM with its own heap on one machine. */
    public static final int MAX = 16;

    private SutInstances() {
    }

    /** The name of instance {@code index} of {@code count}. */
    public static String name(int index, int count) {
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException("instance " + index + " of " + count);
        }
        return count == 1 ? SUT : SUT + "-" + index;
    }

    /** Every instance's name, in start order. */
    public static List<String> names(int count) {
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(name(i, count));
        }
        return names;
    }

    /**
     * The name of instance {@code name}'s process when it is started again after a kill (a fail-over run's
     * {@code --restart-instance-at}): {@code sut-0-restart}. A process of its own (its files, its figures), since its
     * counters start from 0; in the sum {@code sut} with the others.
     */
    public static String restarted(String name) {
        return name + RESTART;
    }

    private static final String RESTART = "-restart";

    /**
     * Whether {@code name} is one of the SUT's (sut, sut-N, sut-N-restart) or the driver's: no companion or load may
     * take it.
     */
    public static boolean reserved(String name) {
        return name.equals(SUT) || name.matches("sut-[0-9]+(" + RESTART + ")?") || name.equals("driver");
    }

    /** Checks a number of instances; IllegalArgumentException in one line. */
    public static int check(int count) {
        if (count < 1 || count > MAX) {
            throw new IllegalArgumentException("--instances must be 1 to " + MAX + ", got " + count);
        }
        return count;
    }
}

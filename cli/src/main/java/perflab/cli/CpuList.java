package perflab.cli;

import java.util.BitSet;

/** A taskset CPU list ("0", "0-1", "0,2-3"), checked against the CPUs this machine has. */
final class CpuList {
    private CpuList() {
    }

    static BitSet parse(String flag, String text) {
        BitSet cpus = new BitSet();
        int available = Runtime.getRuntime().availableProcessors();
        try {
            for (String part : text.split(",")) {
                String[] range = part.trim().split("-");
                int from = Integer.parseInt(range[0].trim());
                int to = range.length > 1 ? Integer.parseInt(range[1].trim()) : from;
                if (range.length > 2 || from < 0 || to < from) {
                    throw new NumberFormatException();
                }
                cpus.set(from, to + 1);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": '" + text + "' is not a CPU list; use e.g. 0, 0-1, 0,2");
        }
        if (cpus.length() > available) {
            throw new IllegalArgumentException(flag + ": '" + text + "' names a CPU this machine lacks; it has CPUs 0-" + (available - 1));
        }
        return cpus;
    }
}

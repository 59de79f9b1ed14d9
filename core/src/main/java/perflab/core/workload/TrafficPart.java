package perflab.core.workload;

/**
 * The part of a run's traffic one driver process makes when agents share the run: its place in the split and the
 * fraction of the run's population it owns, {@code [from, to)} of it. Traffic that deals out a population of its
 * own (voicemail's users) takes only its part's, so that no two agents drive the same user; the same expression
 * gives one agent's {@code to} and the next one's {@code from}, so the parts tile the population exactly.
 *
 * @param index the process's place in the split (0-based): seeds of its own random streams are mixed with it
 * @param from  where its part of the population starts, as a fraction of it (0..1)
 * @param to    where its part ends (exclusive), as a fraction (from..1)
 */
public record TrafficPart(int index, double from, double to) {
    /** The whole run's traffic, made by one process. */
    public static final TrafficPart WHOLE = new TrafficPart(0, 0, 1);

    public TrafficPart {
        if (index < 0 || !(from >= 0 && from < to && to <= 1)) {
            throw new IllegalArgumentException("a traffic part needs an index and 0 <= from < to <= 1, got "
                    + index + " [" + from + ", " + to + ")");
        }
    }

    /** {@code [first, end)} of a population of {@code size}: the cumulative floors of the fractions. */
    public long first(long size) {
        return (long) Math.floor(size * from);
    }

    public long end(long size) {
        return to == 1 ? size : (long) Math.floor(size * to);
    }

    public boolean whole() {
        return from == 0 && to == 1;
    }
}

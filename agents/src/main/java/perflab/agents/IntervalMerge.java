package perflab.agents;

import perflab.driver.DriverResults;
import perflab.driver.Interval;
import perflab.driver.IntervalListener;
import perflab.driver.Phase;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Adds the agents' intervals by their index from the phase's start (not by wall clock: the agents' clocks and
 * cuts differ by milliseconds, an index does not) and hands each merged interval on once every agent still
 * driving has reported it or a later one. An agent that ended (finished or lost) holds nobody back. Not
 * thread-safe: the controller's run thread calls it.
 */
final class IntervalMerge {
    /** The key of an interval: its phase, then its index in the phase. */
    private record Key(Phase phase, int index) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int byPhase = phase.compareTo(o.phase);
            return byPhase != 0 ? byPhase : Integer.compare(index, o.index);
        }
    }

    private final IntervalListener listener;
    private final TreeMap<Key, List<Interval>> waiting = new TreeMap<>();
    /** Per agent, the latest key it reported (null before its first), and whether it ended. */
    private final Key[] latest;
    private final boolean[] ended;
    private final long[] measuredRequests;
    private long mergedMeasuredRequests;

    IntervalMerge(int agents, IntervalListener listener) {
        this.listener = listener;
        this.latest = new Key[agents];
        this.ended = new boolean[agents];
        this.measuredRequests = new long[agents];
    }

    /** Agent {@code agent}'s interval {@code index} of its phase; an agent reports its intervals in order. */
    void offer(int agent, int index, Interval interval) {
        Key key = new Key(interval.phase(), index);
        if (latest[agent] != null && key.compareTo(latest[agent]) <= 0) {
            throw new IllegalStateException("agent " + (agent + 1) + " reported interval " + key + " after " + latest[agent]);
        }
        latest[agent] = key;
        if (interval.phase() == Phase.MEASURE) {
            measuredRequests[agent] += interval.successes() + interval.errorCount();
        }
        waiting.computeIfAbsent(key, k -> new ArrayList<>()).add(interval);
        handOn();
    }

    /** The agent reports no more (its driver finished, or it was lost). */
    void ended(int agent) {
        ended[agent] = true;
        handOn();
    }

    /** Hands on whatever is still waiting, in order (the run is over). */
    void flush() {
        java.util.Arrays.fill(ended, true);
        handOn();
    }

    /** The requests of the measured intervals agent {@code agent} reported. */
    long measuredRequests(int agent) {
        return measuredRequests[agent];
    }

    /** The requests of the merged measured intervals handed on. */
    long mergedMeasuredRequests() {
        return mergedMeasuredRequests;
    }

    private void handOn() {
        while (!waiting.isEmpty()) {
            Map.Entry<Key, List<Interval>> first = waiting.firstEntry();
            if (!everyoneHas(first.getKey())) {
                return;
            }
            waiting.pollFirstEntry();
            Interval merged = DriverResults.merge(first.getKey().phase(), first.getValue());
            if (merged.phase() == Phase.MEASURE) {
                mergedMeasuredRequests += merged.successes() + merged.errorCount();
            }
            listener.onInterval(merged);
        }
    }

    private boolean everyoneHas(Key key) {
        for (int a = 0; a < latest.length; a++) {
            if (!ended[a] && (latest[a] == null || latest[a].compareTo(key) < 0)) {
                return false;
            }
        }
        return true;
    }
}

package perflab.monitor.gc;

import perflab.core.result.gc.GcCascade;
import perflab.core.result.gc.GcEvent;
import perflab.core.result.gc.GcSecond;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * GC per second of the log: pause time (a pause spread over the seconds it spans), pauses ended, heap after.
 * A second is a cascade when pauses leave the application less than the threshold's share of it; the events
 * of a second are kept only until it is over and known not to be one, so a long log keeps one small bucket a
 * second.
 */
final class PauseSeconds {
    private static final class Second {
        double pauseMs;
        int pauses;
        double heapAfterMb = Double.NaN;
        double minYoungAfterMb = Double.NaN;
        List<GcEvent> events;
        boolean settled;
    }

    /** The seconds and their cascades, as the analysis reports them. */
    record Timeline(List<GcSecond> perSecond, List<GcCascade> cascades) {
    }

    private final double cascadeLimitMs;
    private final TreeMap<Long, Second> seconds = new TreeMap<>();
    private final TreeSet<Long> unsettled = new TreeSet<>();

    /** @param cascadeThreshold a second is a cascade when pauses leave the application less than this share of it */
    PauseSeconds(double cascadeThreshold) {
        this.cascadeLimitMs = (1.0 - cascadeThreshold) * 1000.0;
    }

    static long secondOf(double t) {
        return Math.floorDiv((long) Math.floor(t), 1000L) * 1000L;
    }

    /** A pause of {@code ms} that ended at {@code t}: counted in the second it ended in, its time in every one it spans. */
    void pause(GcEvent event, long t, double ms) {
        double start = t - ms;
        for (long s = secondOf(start); s <= secondOf(t); s += 1000) {
            double overlap = Math.min(t, s + 1000) - Math.max(start, s);
            Second b = second(s);
            b.pauseMs += Math.max(0, overlap);
            if (s == secondOf(t)) {
                b.pauses++;
            }
            if (b.events == null && !b.settled) {
                b.events = new ArrayList<>();
                unsettled.add(s);
            }
            if (b.events != null) {
                b.events.add(event);
            }
        }
    }

    /** The heap after a collection that ended at {@code t}; a young one's also bounds the live set from above. */
    void heapAfter(long t, double afterMb, boolean young) {
        Second b = second(secondOf(t));
        b.heapAfterMb = afterMb;
        if (young) {
            b.minYoungAfterMb = Double.isNaN(b.minYoungAfterMb) ? afterMb : Math.min(b.minYoungAfterMb, afterMb);
        }
    }

    /** Drops the kept events of seconds over before {@code t} that are not cascades. */
    void settleBefore(long t) {
        while (!unsettled.isEmpty() && unsettled.first() + 1000 <= t) {
            Second b = seconds.get(unsettled.pollFirst());
            b.settled = true;
            if (b.pauseMs <= cascadeLimitMs) {
                b.events = null;
            }
        }
    }

    /** One second, in O(log n); a second without GC reads 0. */
    GcSecond at(long s) {
        Second b = seconds.get(s);
        return b == null ? new GcSecond(s, 0, 0, null) : gcSecond(s, b);
    }

    /**
     * The lowest heap after a young collection in the whole seconds from {@code from} on, else the last one
     * seen; null when there is none. The live set where no collection reclaimed the old generation.
     */
    Double lowestYoungAfterFrom(long from) {
        double min = Double.NaN;
        double lastSeen = Double.NaN;
        for (Map.Entry<Long, Second> e : seconds.entrySet()) {
            double v = e.getValue().minYoungAfterMb;
            if (Double.isNaN(v)) {
                continue;
            }
            lastSeen = v;
            if (e.getKey() >= from) { // whole seconds only: a second's minimum may predate the half
                min = Double.isNaN(min) ? v : Math.min(min, v);
            }
        }
        return !Double.isNaN(min) ? Double.valueOf(min) : !Double.isNaN(lastSeen) ? Double.valueOf(lastSeen) : null;
    }

    /** Every second of the window (and any GC second outside it), with the cascades among them. */
    Timeline timeline(long windowStart, long windowEnd, long windowMs, boolean wallClock) {
        List<GcCascade> cascades = new ArrayList<>();
        List<GcSecond> perSecond = new ArrayList<>();
        long s = secondOf(windowStart);
        Iterator<Map.Entry<Long, Second>> it = seconds.entrySet().iterator();
        Map.Entry<Long, Second> next = it.hasNext() ? it.next() : null;
        long lastSecond = windowMs > 0 ? secondOf(windowEnd) : s - 1000;
        if (!seconds.isEmpty()) {
            s = Math.min(s, seconds.firstKey());
            lastSecond = Math.max(lastSecond, seconds.lastKey());
        }
        for (; s <= lastSecond; s += 1000) {
            Second b = next != null && next.getKey() == s ? next.getValue() : null;
            if (b != null) {
                next = it.hasNext() ? it.next() : null;
                perSecond.add(gcSecond(s, b));
                if (b.pauseMs > cascadeLimitMs) {
                    cascades.add(new GcCascade(s, wallClock ? Instant.ofEpochMilli(s).toString() : null,
                            GcLogAccumulator.round(b.pauseMs, 3), GcLogAccumulator.round(Math.max(0, 1 - b.pauseMs / 1000.0), 4),
                            b.events == null ? List.of() : List.copyOf(b.events)));
                }
            } else {
                perSecond.add(new GcSecond(s, 0, 0, null));
            }
        }
        return new Timeline(List.copyOf(perSecond), List.copyOf(cascades));
    }

    private static GcSecond gcSecond(long s, Second b) {
        return new GcSecond(s, GcLogAccumulator.round(b.pauseMs, 3), b.pauses,
                Double.isNaN(b.heapAfterMb) ? null : GcLogAccumulator.round(b.heapAfterMb, 3));
    }

    private Second second(long s) {
        return seconds.computeIfAbsent(s, k -> new Second());
    }
}

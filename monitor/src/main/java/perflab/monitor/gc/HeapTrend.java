package perflab.monitor.gc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The heap from one collection to the next: allocation (what the heap grew by between one collection's
 * heap-after and the next one's heap-before, or single-generation ZGC's own per-cycle figure) and the live
 * set (the median of the lowest heap-after of collections that reclaim the old generation).
 */
final class HeapTrend {
    private static final Pattern MB_COLUMN = Pattern.compile("(\\d+)M \\(");

    private double prevAfterMb = Double.NaN;
    private double allocatedMb;
    private long allocFirst = UnifiedLogLine.NO_TIME;
    private long allocLast = UnifiedLogLine.NO_TIME;
    private final List<Double> liveCandidates = new ArrayList<>();

    /** A collection before the window: the first one inside counts its allocation from here. */
    void beforeWindow(double afterMb) {
        prevAfterMb = afterMb;
    }

    /** A collection in sequence inside the window, ended at {@code t}. */
    void collected(long t, double beforeMb, double afterMb) {
        if (allocFirst == UnifiedLogLine.NO_TIME) {
            allocFirst = t;
        } else if (!Double.isNaN(prevAfterMb)) {
            allocatedMb += Math.max(0, beforeMb - prevAfterMb);
        }
        allocLast = t;
        prevAfterMb = afterMb;
    }

    /** Single-generation ZGC's per-cycle table: "Allocated:" during the cycle, at Relocate End (third figure). */
    void zgcAllocated(String rest) {
        Matcher m = MB_COLUMN.matcher(rest);
        for (int i = 0; m.find(); i++) {
            if (i == 2) {
                allocatedMb += Double.parseDouble(m.group(1));
                return;
            }
        }
    }

    /** A finished collection: its lowest heap-after bounds the live set if it reclaimed the old generation. */
    void settled(GcCollection c) {
        if (c.reclaimsOld && !Double.isNaN(c.minAfterMb)) {
            liveCandidates.add(c.minAfterMb);
        }
    }

    /** MB per second over the collections seen; null when fewer than two, or when the log's figure is unusable. */
    Double allocationRate(boolean usable) {
        return allocLast > allocFirst && usable
                ? GcLogAccumulator.round(allocatedMb / ((allocLast - allocFirst) / 1000.0), 3) : null;
    }

    /** The live set from the finished collections and those still open; null when none reclaimed the old generation. */
    Double liveSet(Iterable<GcCollection> stillOpen) {
        List<Double> live = new ArrayList<>(liveCandidates);
        for (GcCollection c : stillOpen) {
            if (c.reclaimsOld && !Double.isNaN(c.minAfterMb)) {
                live.add(c.minAfterMb);
            }
        }
        if (live.isEmpty()) {
            return null;
        }
        Collections.sort(live);
        int n = live.size();
        return n % 2 == 1 ? live.get(n / 2) : (live.get(n / 2 - 1) + live.get(n / 2)) / 2;
    }
}

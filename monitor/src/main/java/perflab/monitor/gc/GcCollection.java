package perflab.monitor.gc;

/**
 * One collection, by its GC id, while its lines come in: the strongest kind any of its lines names, whether
 * it reclaims the old generation (so its heap-after bounds the live set), and its lowest heap after.
 */
final class GcCollection {
    /**
     * In order of strength: a collection that is young and then full counts as full. MIXED is G1's young pause that
     * also reclaims some old regions: no full collection, and counted apart so that "full" means only a whole-heap one.
     */
    enum Kind { NONE, CONCURRENT, YOUNG, MIXED, FULL }

    final long firstTime;
    Kind kind = Kind.NONE;
    boolean reclaimsOld;
    double minAfterMb = Double.NaN;

    GcCollection(long firstTime) {
        this.firstTime = firstTime;
    }

    void atLeast(Kind k) {
        if (k.compareTo(kind) > 0) {
            kind = k;
        }
    }

    void heapAfter(double afterMb) {
        minAfterMb = Double.isNaN(minAfterMb) ? afterMb : Math.min(minAfterMb, afterMb);
    }
}

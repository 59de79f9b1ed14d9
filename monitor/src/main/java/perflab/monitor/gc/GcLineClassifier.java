package perflab.monitor.gc;

/**
 * What a log's lines say about its collector and collections: the "Using ..." header names the collector;
 * failing that, lines only one collector writes do; and each collection's lines say what kind it is
 * (young, mixed, full, concurrent). Knows the wording of Serial, Parallel, G1, ZGC (single and
 * generational) and Shenandoah.
 */
final class GcLineClassifier {
    private String using;
    private String inferred;
    private boolean zgcGenerational;

    /** A line of the header (no GC id): the collector's name. */
    void header(String tags, String msg) {
        if (!tags.equals("gc") || !msg.startsWith("Using ")) {
            return;
        }
        String name = msg.substring(6).trim();
        if (name.startsWith("Serial")) {
            using = "serial";
        } else if (name.startsWith("Parallel")) {
            using = "parallel";
        } else if (name.startsWith("G1")) {
            using = "g1";
        } else if (name.startsWith("The Z Garbage Collector")) {
            using = "zgc";
        } else if (name.startsWith("Shenandoah")) {
            using = "shenandoah";
        } else if (name.startsWith("Concurrent Mark Sweep")) {
            using = "cms";
        } else if (name.startsWith("Epsilon")) {
            using = "epsilon";
        }
    }

    /** A collection's line (after "GC(id)"), raising its kind to what the line names. */
    void classify(GcCollection c, String rest) {
        GcCollection.Kind k;
        if (rest.startsWith("Pause Young")) {
            if (rest.contains("(Mixed)")) {
                k = GcCollection.Kind.MIXED;
                c.reclaimsOld = true;
            } else {
                k = GcCollection.Kind.YOUNG;
            }
            if (rest.contains("G1 ")) {
                infer("g1");
            }
        } else if (rest.startsWith("Pause Full") || rest.startsWith("Pause Degenerated GC")) {
            k = GcCollection.Kind.FULL;
            c.reclaimsOld = true;
        } else if (rest.startsWith("Minor Collection")) {
            k = GcCollection.Kind.YOUNG;
            zgcGenerational = true;
        } else if (rest.startsWith("Major Collection")) {
            k = GcCollection.Kind.CONCURRENT;
            c.reclaimsOld = true;
            zgcGenerational = true;
        } else if (rest.startsWith("Garbage Collection (")) {
            k = GcCollection.Kind.CONCURRENT;
            c.reclaimsOld = true;
            infer("zgc");
        } else if (rest.startsWith("Concurrent cleanup")) {
            k = GcCollection.Kind.CONCURRENT; // Shenandoah: regions freed at the end of (and during) its cycle
            c.reclaimsOld = true;
        } else if (rest.startsWith("Pause Init Mark")) {
            k = GcCollection.Kind.CONCURRENT;
            infer("shenandoah");
        } else if (rest.startsWith("Concurrent Mark Cycle") || rest.startsWith("Concurrent Undo Cycle")) {
            k = GcCollection.Kind.CONCURRENT;
            infer("g1");
        } else if (rest.startsWith("Pause ") || rest.startsWith("Concurrent ")) {
            k = GcCollection.Kind.CONCURRENT;
        } else {
            return;
        }
        c.atLeast(k);
    }

    /** A gc,heap line: the young generation's name gives Parallel and Serial away. */
    void heapLine(String rest) {
        if (rest.startsWith("PSYoungGen")) {
            infer("parallel");
        } else if (rest.startsWith("DefNew")) {
            infer("serial");
        }
    }

    /** A pause's kind as {@code GcEvent} names it: "full", "mixed" (G1), "young" or "other". */
    static String pauseKind(String name) {
        return name.startsWith("Pause Full") || name.startsWith("Pause Degenerated GC") ? "full"
                : name.startsWith("Pause Young") && name.contains("(Mixed)") ? "mixed"
                : name.startsWith("Pause Young") ? "young" : "other";
    }

    private void infer(String collector) {
        if (inferred == null) {
            inferred = collector;
        }
    }

    /** The collector named as perflab names it; "unknown" when the log does not say. */
    String collector() {
        String c = using != null ? using : inferred != null ? inferred : zgcGenerational ? "zgc" : "unknown";
        return c.equals("zgc") && zgcGenerational ? "zgc-generational" : c;
    }
}

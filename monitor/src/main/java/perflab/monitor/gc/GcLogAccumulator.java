package perflab.monitor.gc;

import perflab.core.result.gc.GcAnalysis;
import perflab.core.result.gc.GcCascade;
import perflab.core.result.gc.GcEvent;
import perflab.core.result.gc.GcSecond;

import org.HdrHistogram.Histogram;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The streaming form of {@link GcLogAnalyzer}: feed it the log's lines in order with {@link #accept(String)},
 * then ask for {@link #result()}. It keeps totals, a pause histogram, one small bucket per second and the
 * events of the last few seconds only, so a multi-hour log is never held in memory.
 */
public final class GcLogAccumulator {
    private static final int RECOGNITION_LINES = 200;
    private static final int OPEN_IDS = 4096;
    /** A second's events are kept this long after the second, in case a late-ending pause still reaches back. */
    private static final long CASCADE_LAG_MS = 3000;

    private static final Pattern HEAP = Pattern.compile("(\\d+)([BKMGT])->(\\d+)([BKMGT])\\((\\d+)([BKMGT])\\)");
    private static final Pattern ZGC_HEAP = Pattern.compile("(\\d+)M\\(\\d+%\\)->(\\d+)M\\(\\d+%\\)");
    private static final Pattern MB_COLUMN = Pattern.compile("(\\d+)M \\(");
    private static final Pattern CPU = Pattern.compile("User=([\\d.]+)s Sys=([\\d.]+)s");
    private static final Pattern LEGACY = Pattern.compile(
            "^(?:\\d{4}-\\d\\d-\\d\\dT[\\d:.]+[+-]\\d{4}: )?\\d+[.,]\\d+: \\[(?:GC|Full GC)\\b.*"
                    + "|^CommandLine flags: .*-XX:\\+Print(?:GC|GCDetails)\\b.*");

    private enum Kind { NONE, CONCURRENT, YOUNG, FULL }

    private static final class Collection {
        final long firstTime;
        Kind kind = Kind.NONE;
        boolean reclaimsOld;
        double minAfterMb = Double.NaN;

        Collection(long firstTime) {
            this.firstTime = firstTime;
        }
    }

    private static final class Second {
        double pauseMs;
        int pauses;
        double heapAfterMb = Double.NaN;
        double minYoungAfterMb = Double.NaN;
        List<GcEvent> events;
        boolean settled;
    }

    private final String source;
    private final long from;
    private final long to;
    private final double cascadeThreshold;
    private final UnifiedLogLine line = new UnifiedLogLine();

    private boolean recognized;
    private int unrecognizedLines;
    private Boolean wallClock;
    private long firstTime = UnifiedLogLine.NO_TIME;
    private long lastTime = UnifiedLogLine.NO_TIME;
    private long currentAt = UnifiedLogLine.NO_TIME;
    private long jvmStart = UnifiedLogLine.NO_TIME;

    private String using;
    private String inferred;
    private boolean zgcGenerational;

    private final LinkedHashMap<Integer, Collection> open = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Collection> eldest) {
            if (size() > OPEN_IDS) {
                settle(eldest.getValue());
                return true;
            }
            return false;
        }
    };
    private long youngCount;
    private long fullCount;
    private long concurrentCount;
    private final List<Double> liveCandidates = new ArrayList<>();

    private final Histogram pauseMicros = new Histogram(3);
    private long pauseCount;
    private double totalPauseMs;
    private double youngPauseMs;
    private double fullPauseMs;
    private double maxPauseMs;

    private boolean cpuSeen;
    private double cpuSeconds;

    private double prevAfterMb = Double.NaN;
    private double allocatedMb;
    private long allocFirst = UnifiedLogLine.NO_TIME;
    private long allocLast = UnifiedLogLine.NO_TIME;

    private final TreeMap<Long, Second> seconds = new TreeMap<>();
    private final TreeSet<Long> unsettledSeconds = new TreeSet<>();

    /**
     * @param source           the log's name, for error messages
     * @param fromEpochMs      window start (inclusive), {@link Long#MIN_VALUE} for the log's start
     * @param toEpochMs        window end (inclusive), {@link Long#MAX_VALUE} for the log's end
     * @param cascadeThreshold a second is a cascade when pauses leave the application less than this share of it
     */
    public GcLogAccumulator(String source, long fromEpochMs, long toEpochMs, double cascadeThreshold) {
        if (fromEpochMs > toEpochMs) {
            throw new IllegalArgumentException("GC window: from " + fromEpochMs + " is after to " + toEpochMs);
        }
        if (!(cascadeThreshold >= 0 && cascadeThreshold <= 1)) {
            throw new IllegalArgumentException("cascade threshold must be between 0 and 1, not " + cascadeThreshold);
        }
        this.source = source;
        this.from = fromEpochMs;
        this.to = toEpochMs;
        this.cascadeThreshold = cascadeThreshold;
    }

    private boolean windowed() {
        return from != Long.MIN_VALUE || to != Long.MAX_VALUE;
    }

    private boolean inWindow(long t) {
        return t >= from && t <= to;
    }

    /** Takes the next line of the log. */
    public void accept(String raw) {
        if (raw.isBlank()) {
            return;
        }
        if (!line.parse(raw) || !(line.tags.startsWith("gc") || line.tags.startsWith("safepoint"))) {
            if (!recognized) {
                if (LEGACY.matcher(raw).matches()) {
                    throw new UnknownGcLogFormatException(source, "it is a JDK 8 style log (-XX:+PrintGCDetails), "
                            + "which is not supported; log with -Xlog:gc*:file=<file>:time,uptime,level,tags");
                }
                if (++unrecognizedLines >= RECOGNITION_LINES) {
                    throw new UnknownGcLogFormatException(source, "no gc-tagged unified logging line in its first "
                            + RECOGNITION_LINES + " lines");
                }
            }
            return;
        }
        long t = time();
        recognized = true;
        if (firstTime == UnifiedLogLine.NO_TIME) {
            firstTime = t;
            jvmStart = Double.isNaN(line.uptimeMs) ? t : t - Math.round(line.uptimeMs);
        }
        lastTime = Math.max(lastTime, t);
        if (line.tags.startsWith("gc")) {
            gcLine(t, line.tags, line.message);
        }
        settleSecondsBefore(t - CASCADE_LAG_MS);
    }

    private long time() {
        if (wallClock == null) {
            if (line.epochMs != UnifiedLogLine.NO_TIME) {
                wallClock = true;
            } else if (!Double.isNaN(line.uptimeMs)) {
                wallClock = false;
                if (windowed()) {
                    throw new UnknownGcLogFormatException(source, "it has uptime but no wall-clock (time) decoration, "
                            + "needed to cut the measured window");
                }
            } else {
                throw new UnknownGcLogFormatException(source, "its lines carry no time or uptime decoration");
            }
        }
        if (wallClock) {
            if (line.epochMs == UnifiedLogLine.NO_TIME) {
                throw new UnknownGcLogFormatException(source, "a line lacks the time decoration the others have");
            }
            return line.epochMs;
        }
        if (Double.isNaN(line.uptimeMs)) {
            throw new UnknownGcLogFormatException(source, "a line lacks the uptime decoration the others have");
        }
        return Math.round(line.uptimeMs);
    }

    private void gcLine(long t, String tags, String msg) {
        if (!msg.startsWith("GC(")) {
            header(tags, msg);
            return;
        }
        int close = msg.indexOf(')');
        int id;
        try {
            id = Integer.parseInt(msg.substring(3, close));
        } catch (RuntimeException e) {
            return;
        }
        String rest = msg.substring(close + 1).trim();
        char generation = 0;
        if (rest.length() > 2 && rest.charAt(1) == ':' && "yYoO".indexOf(rest.charAt(0)) >= 0) {
            generation = rest.charAt(0);
            rest = rest.substring(2).trim();
        }
        Collection c = open.get(id);
        if (c == null) {
            c = new Collection(t);
            open.put(id, c);
        }
        switch (tags) {
            case "gc" -> {
                classify(c, rest);
                if (rest.startsWith("Pause ") && rest.endsWith("ms")) {
                    pause(c, id, t, rest);
                } else {
                    summary(c, t, rest);
                }
            }
            case "gc,start" -> classify(c, rest);
            case "gc,phases" -> {
                if (rest.startsWith("Pause ") && rest.endsWith("ms")) {
                    pause(c, id, t, rest);
                }
            }
            case "gc,cpu" -> {
                Matcher m = CPU.matcher(rest);
                if (m.find()) {
                    cpuSeen = true;
                    if (inWindow(t)) {
                        cpuSeconds += Double.parseDouble(m.group(1)) + Double.parseDouble(m.group(2));
                    }
                }
            }
            case "gc,heap" -> heapDetail(t, generation, rest);
            default -> {
            }
        }
    }

    private void header(String tags, String msg) {
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

    private void classify(Collection c, String rest) {
        Kind k;
        if (rest.startsWith("Pause Young")) {
            if (rest.contains("(Mixed)")) {
                k = Kind.FULL;
                c.reclaimsOld = true;
            } else {
                k = Kind.YOUNG;
            }
            if (rest.contains("G1 ")) {
                infer("g1");
            }
        } else if (rest.startsWith("Pause Full") || rest.startsWith("Pause Degenerated GC")) {
            k = Kind.FULL;
            c.reclaimsOld = true;
        } else if (rest.startsWith("Minor Collection")) {
            k = Kind.YOUNG;
            zgcGenerational = true;
        } else if (rest.startsWith("Major Collection")) {
            k = Kind.CONCURRENT;
            c.reclaimsOld = true;
            zgcGenerational = true;
        } else if (rest.startsWith("Garbage Collection (")) {
            k = Kind.CONCURRENT;
            c.reclaimsOld = true;
            infer("zgc");
        } else if (rest.startsWith("Concurrent cleanup")) {
            k = Kind.CONCURRENT; // Shenandoah: regions freed at the end of (and during) its cycle
            c.reclaimsOld = true;
        } else if (rest.startsWith("Pause Init Mark")) {
            k = Kind.CONCURRENT;
            infer("shenandoah");
        } else if (rest.startsWith("Concurrent Mark Cycle") || rest.startsWith("Concurrent Undo Cycle")) {
            k = Kind.CONCURRENT;
            infer("g1");
        } else if (rest.startsWith("Pause ") || rest.startsWith("Concurrent ")) {
            k = Kind.CONCURRENT;
        } else {
            return;
        }
        if (k.compareTo(c.kind) > 0) {
            c.kind = k;
        }
    }

    private void infer(String collector) {
        if (inferred == null) {
            inferred = collector;
        }
    }

    private void pause(Collection c, int id, long t, String rest) {
        int lastSpace = rest.lastIndexOf(' ');
        if (lastSpace < 0) {
            return;
        }
        double ms;
        try {
            ms = Double.parseDouble(rest.substring(lastSpace + 1, rest.length() - 2));
        } catch (NumberFormatException e) {
            return;
        }
        String name = rest.substring(0, lastSpace).trim();
        Double before = null;
        Double after = null;
        int heapSpace = name.lastIndexOf(' ');
        if (heapSpace > 0) {
            Matcher m = HEAP.matcher(name.substring(heapSpace + 1));
            if (m.matches()) {
                before = mb(m.group(1), m.group(2));
                after = mb(m.group(3), m.group(4));
                name = name.substring(0, heapSpace);
            }
        }
        String kind = name.startsWith("Pause Full") || name.startsWith("Pause Degenerated GC")
                || name.startsWith("Pause Young") && name.contains("(Mixed)") ? "full"
                : name.startsWith("Pause Young") ? "young" : "other";
        if (!inWindow(t)) {
            if (after != null) {
                prevAfterMb = after;
            }
            return;
        }
        pauseCount++;
        totalPauseMs += ms;
        if (kind.equals("young")) {
            youngPauseMs += ms;
        } else if (kind.equals("full")) {
            fullPauseMs += ms;
        }
        maxPauseMs = Math.max(maxPauseMs, ms);
        pauseMicros.recordValue(Math.max(1, Math.round(ms * 1000)));
        GcEvent event = new GcEvent(t, Double.isNaN(line.uptimeMs) ? null : round(line.uptimeMs / 1000.0, 3), id, name,
                kind, round(ms, 3), before, after);
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
                unsettledSeconds.add(s);
            }
            if (b.events != null) {
                b.events.add(event);
            }
        }
        if (after != null) {
            sample(c, t, before, after, true);
        }
    }

    /** Lines that close a collection with its heap figures: ZGC cycles, Shenandoah cleanups. */
    private void summary(Collection c, long t, String rest) {
        Matcher m = HEAP.matcher(rest);
        if (m.find()) {
            sample(c, t, mb(m.group(1), m.group(2)), mb(m.group(3), m.group(4)), true);
            return;
        }
        m = ZGC_HEAP.matcher(rest);
        if (m.find()) {
            // A generational ZGC major collection spans many minor ones: its figures would break the sequence.
            boolean sequential = !rest.startsWith("Major Collection");
            sample(c, t, Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)), sequential);
        }
    }

    private void sample(Collection c, long t, double beforeMb, double afterMb, boolean sequential) {
        if (!inWindow(t)) {
            if (sequential) {
                prevAfterMb = afterMb;
            }
            return;
        }
        if (sequential) {
            if (allocFirst == UnifiedLogLine.NO_TIME) {
                allocFirst = t;
            } else if (!Double.isNaN(prevAfterMb)) {
                allocatedMb += Math.max(0, beforeMb - prevAfterMb);
            }
            allocLast = t;
            prevAfterMb = afterMb;
        }
        c.minAfterMb = Double.isNaN(c.minAfterMb) ? afterMb : Math.min(c.minAfterMb, afterMb);
        Second b = second(secondOf(t));
        b.heapAfterMb = afterMb;
        if (c.kind == Kind.YOUNG) {
            b.minYoungAfterMb = Double.isNaN(b.minYoungAfterMb) ? afterMb : Math.min(b.minYoungAfterMb, afterMb);
        }
    }

    /** Single-generation ZGC's per-cycle table: "Allocated:" during the cycle, at Relocate End (third figure). */
    private void heapDetail(long t, char generation, String rest) {
        if (rest.startsWith("PSYoungGen")) {
            infer("parallel");
        } else if (rest.startsWith("DefNew")) {
            infer("serial");
        }
        if (!rest.startsWith("Allocated:") || generation != 0 || !inWindow(t)) {
            return;
        }
        Matcher m = MB_COLUMN.matcher(rest);
        for (int i = 0; m.find(); i++) {
            if (i == 2) {
                allocatedMb += Double.parseDouble(m.group(1));
                return;
            }
        }
    }

    private Second second(long s) {
        return seconds.computeIfAbsent(s, k -> new Second());
    }

    private static long secondOf(double t) {
        return Math.floorDiv((long) Math.floor(t), 1000L) * 1000L;
    }

    private double cascadeLimitMs() {
        return (1.0 - cascadeThreshold) * 1000.0;
    }

    /** Drops the kept events of seconds that are over and are not cascades. */
    private void settleSecondsBefore(long t) {
        while (!unsettledSeconds.isEmpty() && unsettledSeconds.first() + 1000 <= t) {
            Second b = seconds.get(unsettledSeconds.pollFirst());
            b.settled = true;
            if (b.pauseMs <= cascadeLimitMs()) {
                b.events = null;
            }
        }
    }

    private void settle(Collection c) {
        if (!inWindow(c.firstTime)) {
            return;
        }
        switch (c.kind) {
            case YOUNG -> youngCount++;
            case FULL -> fullCount++;
            case CONCURRENT -> concurrentCount++;
            default -> {
                return;
            }
        }
        if (c.reclaimsOld && !Double.isNaN(c.minAfterMb)) {
            liveCandidates.add(c.minAfterMb);
        }
    }

    private static double mb(String value, String unit) {
        double v = Double.parseDouble(value);
        return switch (unit) {
            case "B" -> v / (1024.0 * 1024.0);
            case "K" -> v / 1024.0;
            case "G" -> v * 1024.0;
            case "T" -> v * 1024.0 * 1024.0;
            default -> v;
        };
    }

    private static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }

    /** The collector named as perflab names it; "unknown" when the log does not say. */
    public String collector() {
        String c = using != null ? using : inferred != null ? inferred : zgcGenerational ? "zgc" : "unknown";
        return c.equals("zgc") && zgcGenerational ? "zgc-generational" : c;
    }

    /**
     * Says that the log is complete up to {@code epochMs}: the JVM is still running and writes each line as it
     * happens, so a quiet stretch at the end of the window is time without GC, not time missing from the log.
     * Without it the window ends at the log's last line. Wall-clock logs only; ignored for uptime logs.
     */
    public void logCurrentAt(long epochMs) {
        currentAt = Math.max(currentAt, epochMs);
    }

    /** Whether a gc-tagged unified logging line has been seen (before that, {@link #result()} throws). */
    public boolean recognized() {
        return recognized;
    }

    /**
     * One second of the lines seen so far, in O(log n): the live view's "GC of the last second" without
     * building the whole {@link #result()}. Seconds inside the window only; a second without GC reads 0.
     *
     * @param epochMs start of the second (a multiple of 1000; uptime ms for uptime-only logs)
     */
    public GcSecond secondAt(long epochMs) {
        Second b = seconds.get(epochMs);
        return b == null ? new GcSecond(epochMs, 0, 0, null)
                : new GcSecond(epochMs, round(b.pauseMs, 3), b.pauses,
                        Double.isNaN(b.heapAfterMb) ? null : round(b.heapAfterMb, 3));
    }

    /** The analysis of the lines seen so far; may be called more than once. */
    public GcAnalysis result() {
        if (!recognized) {
            throw new UnknownGcLogFormatException(source, unrecognizedLines == 0 ? "it is empty"
                    : "it has no gc-tagged unified logging line");
        }
        long young = youngCount;
        long full = fullCount;
        long concurrent = concurrentCount;
        List<Double> live = new ArrayList<>(liveCandidates);
        for (Collection c : open.values()) {
            if (!inWindow(c.firstTime)) {
                continue;
            }
            switch (c.kind) {
                case YOUNG -> young++;
                case FULL -> full++;
                case CONCURRENT -> concurrent++;
                default -> {
                    continue;
                }
            }
            if (c.reclaimsOld && !Double.isNaN(c.minAfterMb)) {
                live.add(c.minAfterMb);
            }
        }
        long windowStart = Math.max(from, jvmStart);
        long windowEnd = Math.min(to, Boolean.TRUE.equals(wallClock) ? Math.max(lastTime, currentAt) : lastTime);
        long windowMs = Math.max(0, windowEnd - windowStart);

        Double liveSet = null;
        if (!live.isEmpty()) {
            Collections.sort(live);
            int n = live.size();
            liveSet = n % 2 == 1 ? live.get(n / 2) : (live.get(n / 2 - 1) + live.get(n / 2)) / 2;
        } else {
            long half = windowStart + windowMs / 2;
            double min = Double.NaN;
            double lastSeen = Double.NaN;
            for (Map.Entry<Long, Second> e : seconds.entrySet()) {
                double v = e.getValue().minYoungAfterMb;
                if (Double.isNaN(v)) {
                    continue;
                }
                lastSeen = v;
                if (e.getKey() >= half) { // whole seconds only: a second's minimum may predate the half
                    min = Double.isNaN(min) ? v : Math.min(min, v);
                }
            }
            liveSet = !Double.isNaN(min) ? Double.valueOf(min) : !Double.isNaN(lastSeen) ? Double.valueOf(lastSeen) : null;
        }
        // Generational ZGC's log gives no usable allocation figure: its per-cycle "Allocated" counts relocation
        // pages too (150% of the JVM's own count in our tests) and the gaps between minor cycles miss most (35%).
        Double allocationRate = allocLast > allocFirst && !collector().equals("zgc-generational")
                ? round(allocatedMb / ((allocLast - allocFirst) / 1000.0), 3) : null;

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
                perSecond.add(new GcSecond(s, round(b.pauseMs, 3), b.pauses,
                        Double.isNaN(b.heapAfterMb) ? null : round(b.heapAfterMb, 3)));
                if (b.pauseMs > cascadeLimitMs()) {
                    cascades.add(new GcCascade(s, Boolean.TRUE.equals(wallClock) ? Instant.ofEpochMilli(s).toString() : null,
                            round(b.pauseMs, 3), round(Math.max(0, 1 - b.pauseMs / 1000.0), 4),
                            b.events == null ? List.of() : List.copyOf(b.events)));
                }
            } else {
                perSecond.add(new GcSecond(s, 0, 0, null));
            }
        }
        return new GcAnalysis(
                collector(),
                young + full + concurrent, young, full, concurrent,
                pauseCount,
                round(totalPauseMs, 3), round(youngPauseMs, 3), round(fullPauseMs, 3),
                windowMs > 0 ? round(totalPauseMs / windowMs * 100.0, 3) : 0.0,
                round(maxPauseMs, 3),
                pauseCount > 0 ? round(pauseMicros.getValueAtPercentile(50) / 1000.0, 3) : 0.0,
                pauseCount > 0 ? round(pauseMicros.getValueAtPercentile(99) / 1000.0, 3) : 0.0,
                cpuSeen ? round(cpuSeconds, 3) : null,
                liveSet == null ? null : round(liveSet, 3),
                allocationRate,
                null,
                round(windowMs / 1000.0, 3),
                Boolean.FALSE.equals(wallClock) ? "uptime" : "wall",
                cascadeThreshold,
                cascades.size(),
                List.copyOf(cascades),
                List.copyOf(perSecond));
    }
}

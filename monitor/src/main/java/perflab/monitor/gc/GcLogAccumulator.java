package perflab.monitor.gc;

import perflab.core.result.gc.GcAnalysis;
import perflab.core.result.gc.GcEvent;
import perflab.core.result.gc.GcSecond;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The streaming form of {@link GcLogAnalyzer}: feed it the log's lines in order with {@link #accept(String)},
 * then ask for {@link #result()}. It keeps totals, a pause histogram, one small bucket per second and the
 * events of the last few seconds only, so a multi-hour log is never held in memory. It reads the lines and keeps
 * the totals; {@link GcLineClassifier} tells what each line is, {@link PauseSeconds} keeps the seconds and
 * cascades, {@link HeapTrend} the allocation and live set.
 */
public final class GcLogAccumulator {
    private static final int RECOGNITION_LINES = 200;
    private static final int OPEN_IDS = 4096;
    /** A second's events are kept this long after the second, in case a late-ending pause still reaches back. */
    private static final long CASCADE_LAG_MS = 3000;

    private static final Pattern HEAP = Pattern.compile("(\\d+)([BKMGT])->(\\d+)([BKMGT])\\((\\d+)([BKMGT])\\)");
    private static final Pattern ZGC_HEAP = Pattern.compile("(\\d+)M\\(\\d+%\\)->(\\d+)M\\(\\d+%\\)");
    private static final Pattern CPU = Pattern.compile("User=([\\d.]+)s Sys=([\\d.]+)s");
    private static final Pattern LEGACY = Pattern.compile(
            "^(?:\\d{4}-\\d\\d-\\d\\dT[\\d:.]+[+-]\\d{4}: )?\\d+[.,]\\d+: \\[(?:GC|Full GC)\\b.*"
                    + "|^CommandLine flags: .*-XX:\\+Print(?:GC|GCDetails)\\b.*");

    private final String source;
    private final long from;
    private final long to;
    private final double cascadeThreshold;
    private final UnifiedLogLine line = new UnifiedLogLine();
    private final GcLineClassifier classifier = new GcLineClassifier();
    private final PauseSeconds seconds;
    private final HeapTrend heap = new HeapTrend();

    private boolean recognized;
    private int unrecognizedLines;
    private Boolean wallClock;
    private long firstTime = UnifiedLogLine.NO_TIME;
    private long lastTime = UnifiedLogLine.NO_TIME;
    private long currentAt = UnifiedLogLine.NO_TIME;
    private long jvmStart = UnifiedLogLine.NO_TIME;

    private final LinkedHashMap<Integer, GcCollection> open = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, GcCollection> eldest) {
            if (size() > OPEN_IDS) {
                settle(eldest.getValue());
                return true;
            }
            return false;
        }
    };
    private long youngCount;
    private long mixedCount;
    private long fullCount;
    private long concurrentCount;

    private final Histogram pauseMicros = new Histogram(3);
    private long pauseCount;
    private double totalPauseMs;
    private double youngPauseMs;
    private double mixedPauseMs;
    private double fullPauseMs;
    private double maxPauseMs;

    private boolean cpuSeen;
    private double cpuSeconds;

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
        this.seconds = new PauseSeconds(cascadeThreshold);
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
        seconds.settleBefore(t - CASCADE_LAG_MS);
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
            classifier.header(tags, msg);
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
        GcCollection c = open.get(id);
        if (c == null) {
            c = new GcCollection(t);
            open.put(id, c);
        }
        switch (tags) {
            case "gc" -> {
                classifier.classify(c, rest);
                if (rest.startsWith("Pause ") && rest.endsWith("ms")) {
                    pause(c, id, t, rest);
                } else {
                    summary(c, t, rest);
                }
            }
            case "gc,start" -> classifier.classify(c, rest);
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

    private void pause(GcCollection c, int id, long t, String rest) {
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
        String kind = GcLineClassifier.pauseKind(name);
        if (!inWindow(t)) {
            if (after != null) {
                heap.beforeWindow(after);
            }
            return;
        }
        pauseCount++;
        totalPauseMs += ms;
        if (kind.equals("young")) {
            youngPauseMs += ms;
        } else if (kind.equals("mixed")) {
            mixedPauseMs += ms;
        } else if (kind.equals("full")) {
            fullPauseMs += ms;
        }
        maxPauseMs = Math.max(maxPauseMs, ms);
        pauseMicros.recordValue(Math.max(1, Math.round(ms * 1000)));
        GcEvent event = new GcEvent(t, Double.isNaN(line.uptimeMs) ? null : round(line.uptimeMs / 1000.0, 3), id, name,
                kind, round(ms, 3), before, after);
        seconds.pause(event, t, ms);
        if (after != null) {
            sample(c, t, before, after, true);
        }
    }

    /** Lines that close a collection with its heap figures: ZGC cycles, Shenandoah cleanups. */
    private void summary(GcCollection c, long t, String rest) {
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

    private void sample(GcCollection c, long t, double beforeMb, double afterMb, boolean sequential) {
        if (!inWindow(t)) {
            if (sequential) {
                heap.beforeWindow(afterMb);
            }
            return;
        }
        if (sequential) {
            heap.collected(t, beforeMb, afterMb);
        }
        c.heapAfter(afterMb);
        seconds.heapAfter(t, afterMb, c.kind == GcCollection.Kind.YOUNG);
    }

    private void heapDetail(long t, char generation, String rest) {
        classifier.heapLine(rest);
        if (rest.startsWith("Allocated:") && generation == 0 && inWindow(t)) {
            heap.zgcAllocated(rest);
        }
    }

    /** A collection that can have no more lines: counted by kind, if it was in the window. */
    private void settle(GcCollection c) {
        if (!counted(c)) {
            return;
        }
        switch (c.kind) {
            case YOUNG -> youngCount++;
            case MIXED -> mixedCount++;
            case FULL -> fullCount++;
            default -> concurrentCount++;
        }
        heap.settled(c);
    }

    private boolean counted(GcCollection c) {
        return inWindow(c.firstTime) && c.kind != GcCollection.Kind.NONE;
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

    static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }

    /** The collector named as perflab names it; "unknown" when the log does not say. */
    public String collector() {
        return classifier.collector();
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
        return seconds.at(epochMs);
    }

    /** The analysis of the lines seen so far; may be called more than once. */
    public GcAnalysis result() {
        if (!recognized) {
            throw new UnknownGcLogFormatException(source, unrecognizedLines == 0 ? "it is empty"
                    : "it has no gc-tagged unified logging line");
        }
        long young = youngCount;
        long mixed = mixedCount;
        long full = fullCount;
        long concurrent = concurrentCount;
        List<GcCollection> stillOpen = new ArrayList<>();
        for (GcCollection c : open.values()) {
            if (!counted(c)) {
                continue;
            }
            switch (c.kind) {
                case YOUNG -> young++;
                case MIXED -> mixed++;
                case FULL -> full++;
                default -> concurrent++;
            }
            stillOpen.add(c);
        }
        long windowStart = Math.max(from, jvmStart);
        long windowEnd = Math.min(to, Boolean.TRUE.equals(wallClock) ? Math.max(lastTime, currentAt) : lastTime);
        long windowMs = Math.max(0, windowEnd - windowStart);

        Double liveSet = heap.liveSet(stillOpen);
        if (liveSet == null) {
            liveSet = seconds.lowestYoungAfterFrom(windowStart + windowMs / 2);
        }
        // Generational ZGC's log gives no usable allocation figure: its per-cycle "Allocated" counts relocation
        // pages too (150% of the JVM's own count in our tests) and the gaps between minor cycles miss most (35%).
        Double allocationRate = heap.allocationRate(!collector().equals("zgc-generational"));
        PauseSeconds.Timeline timeline = seconds.timeline(windowStart, windowEnd, windowMs, Boolean.TRUE.equals(wallClock));

        return new GcAnalysis(
                collector(),
                young + mixed + full + concurrent, young, mixed, full, concurrent,
                pauseCount,
                round(totalPauseMs, 3), round(youngPauseMs, 3), round(mixedPauseMs, 3), round(fullPauseMs, 3),
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
                timeline.cascades().size(),
                timeline.cascades(),
                timeline.perSecond());
    }
}

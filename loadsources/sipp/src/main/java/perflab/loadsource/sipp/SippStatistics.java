package perflab.loadsource.sipp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A SIPp run's statistics read back from its {@code -trace_stat} file (and, when traced, its {@code -trace_rtt}
 * file), as per-period samples keyed by wall-clock time and as figures over a measured window.
 *
 * <p>The file (SIPp 3.6): one header line naming the columns, then one row per {@code -fd} period, ';'-separated,
 * every row ending in ';'. Times are "date TAB local time TAB epoch seconds.micros"; perflab reads the epoch part,
 * which does not depend on the time zone. "(P)" columns are periodic (since the previous row), "(C)" cumulative
 * (since SIPp started). Counts are taken from the (C) columns only, as differences between rows: periodic counters
 * are reset a moment after the row is written, so events in between are in (C) but in no (P), and a row lost to a
 * crash would lose its (P) counts too. Means (response time, call length) exist only per period, as (P).
 */
public final class SippStatistics {
    private static final Pattern RESPONSE_TIME = Pattern.compile("ResponseTime(.+)\\(P\\)");
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
    private static final List<String> NOT_COUNTS = List.of("CallRate", "ElapsedTime", "ResponseTime", "CallLength");

    /** A row: cumulative counters and the period's means, at the row's CurrentTime. */
    private record Snapshot(long epochMicros, Map<String, Long> counters, long currentCalls,
                            Map<String, Double> responseTimeMeanMs, Map<String, Long> responseTimeSamples,
                            Double callLengthMeanMs, long callLengthSamples) {
        long count(String name) {
            return counters.getOrDefault(name, 0L);
        }
    }

    private record RttSample(long epochMicros, String rtd, double ms) {
    }

    private final Path file;
    private final List<Snapshot> snapshots; // the first is the run's start, all counters zero
    private final List<RttSample> rtt;
    private final int skippedLines;

    private SippStatistics(Path file, List<Snapshot> snapshots, List<RttSample> rtt, int skippedLines) {
        this.file = file;
        this.snapshots = snapshots;
        this.rtt = rtt;
        this.skippedLines = skippedLines;
    }

    /** Reads a -trace_stat file. */
    public static SippStatistics read(Path statFile) throws IOException {
        return read(statFile, null);
    }

    /**
     * Reads a -trace_stat file and, if {@code rttFile} is not null and exists, the -trace_rtt file of the same run.
     * An empty file (SIPp wrote nothing yet) gives no periods; a last line without its newline (SIPp stopped
     * mid-write) and any row that does not parse are skipped and counted ({@link #skippedLines()}).
     */
    public static SippStatistics read(Path statFile, Path rttFile) throws IOException {
        if (!Files.exists(statFile)) {
            throw new IOException("the SIPp statistics file " + statFile + " does not exist: SIPp did not start, or ran without -trace_stat -stf (see its .err file)");
        }
        List<String> lines = completeLines(Files.readString(statFile, StandardCharsets.ISO_8859_1));
        int skipped = lines.size() > 0 && lines.get(lines.size() - 1) == null ? 1 : 0;
        lines = lines.stream().filter(l -> l != null && !l.isBlank()).toList();
        List<Snapshot> snapshots = new ArrayList<>();
        if (!lines.isEmpty()) {
            String[] header = fields(lines.get(0));
            Columns columns = new Columns(header, statFile);
            for (String line : lines.subList(1, lines.size())) {
                Optional<Snapshot> s = columns.parse(fields(line));
                if (s.isEmpty()) {
                    skipped++;
                    continue;
                }
                if (snapshots.isEmpty()) {
                    snapshots.add(columns.zeroAt(columns.startMicros(fields(line))));
                }
                Snapshot previous = snapshots.get(snapshots.size() - 1);
                if (s.get().epochMicros() < previous.epochMicros()) {
                    skipped++; // the wall clock stepped back: the row cannot be placed in time
                    continue;
                }
                snapshots.add(s.get());
            }
        }
        List<RttSample> rtt = rttFile != null && Files.exists(rttFile) && !snapshots.isEmpty()
                ? readRtt(rttFile, snapshots.get(0).epochMicros()) : List.of();
        return new SippStatistics(statFile, List.copyOf(snapshots), rtt, skipped);
    }

    /** Lines that ended with a newline; a last piece without one is given as null (written in part). */
    private static List<String> completeLines(String text) {
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        String last = lines.remove(lines.size() - 1);
        if (!last.isEmpty()) {
            lines.add(null);
        }
        return lines;
    }

    private static String[] fields(String line) {
        String l = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        return l.split(";", -1);
    }

    /**
     * The -trace_rtt file: "Date_ms;response_time_ms;rtd_no", Date_ms counted from SIPp's start on its monotonic clock.
     * Placed in wall-clock time from the run's StartTime: both are read within SIPp's first milliseconds.
     */
    private static List<RttSample> readRtt(Path rttFile, long startMicros) throws IOException {
        List<RttSample> samples = new ArrayList<>();
        for (String line : completeLines(Files.readString(rttFile, StandardCharsets.ISO_8859_1))) {
            if (line == null || line.isBlank() || line.startsWith("Date_ms")) {
                continue;
            }
            String[] f = fields(line);
            if (f.length < 3) {
                continue;
            }
            try {
                long at = startMicros + Math.round(Double.parseDouble(f[0]) * 1000);
                samples.add(new RttSample(at, f[2].trim(), Double.parseDouble(f[1])));
            } catch (NumberFormatException e) {
                // a damaged line: one sample fewer
            }
        }
        return List.copyOf(samples);
    }

    /** The header's columns, found by name: SIPp adds columns per rtd and per scenario counter, and may add others. */
    private static final class Columns {
        private final int width;
        private final int start;
        private final int current;
        private final int currentCalls;
        private final Map<String, Integer> counters = new LinkedHashMap<>();
        private final Map<String, Integer> responseTimes = new LinkedHashMap<>();
        private final Map<String, List<Integer>> responseTimeBuckets = new LinkedHashMap<>();
        private final int callLength;
        private final List<Integer> callLengthBuckets = new ArrayList<>();

        Columns(String[] header, Path file) throws IOException {
            Map<String, Integer> index = new HashMap<>();
            int w = header.length;
            while (w > 0 && header[w - 1].isEmpty()) {
                w--; // the trailing ';'
            }
            width = w;
            for (int i = 0; i < w; i++) {
                index.putIfAbsent(header[i].trim(), i);
            }
            if (!index.containsKey("CurrentTime") || !index.containsKey("StartTime")) {
                throw new IOException("the file " + file + " is not a SIPp -trace_stat file: its first line names no StartTime and CurrentTime columns");
            }
            start = index.get("StartTime");
            current = index.get("CurrentTime");
            currentCalls = index.getOrDefault("CurrentCall", -1);
            callLength = index.getOrDefault("CallLength(P)", -1);
            for (int i = 0; i < w; i++) {
                String name = header[i].trim();
                Matcher rt = RESPONSE_TIME.matcher(name);
                if (name.endsWith("(C)") && NOT_COUNTS.stream().noneMatch(name::startsWith)) {
                    counters.put(name.substring(0, name.length() - 3), i);
                } else if (name.equals("TotalCallCreated")) {
                    counters.put(name, i);
                } else if (rt.matches() && !name.endsWith("StDev(P)")) {
                    responseTimes.put(rt.group(1), i);
                } else if (name.startsWith("CallLengthRepartition_")) {
                    callLengthBuckets.add(i);
                }
            }
            for (String rtd : responseTimes.keySet()) {
                List<Integer> buckets = new ArrayList<>();
                for (int i = 0; i < w; i++) {
                    if (header[i].trim().startsWith("ResponseTimeRepartition" + rtd + "_")) {
                        buckets.add(i);
                    }
                }
                responseTimeBuckets.put(rtd, buckets);
            }
        }

        Optional<Snapshot> parse(String[] f) {
            if (f.length < width) {
                return Optional.empty(); // cut short
            }
            try {
                Map<String, Long> c = new HashMap<>();
                counters.forEach((name, i) -> c.put(name, Long.parseLong(f[i].trim())));
                Map<String, Double> means = new HashMap<>();
                Map<String, Long> samples = new HashMap<>();
                for (Map.Entry<String, Integer> rt : responseTimes.entrySet()) {
                    means.put(rt.getKey(), durationMs(f[rt.getValue()]));
                    if (!responseTimeBuckets.get(rt.getKey()).isEmpty()) {
                        samples.put(rt.getKey(), sum(f, responseTimeBuckets.get(rt.getKey())));
                    }
                }
                return Optional.of(new Snapshot(epochMicros(f[current]), c,
                        currentCalls >= 0 ? Long.parseLong(f[currentCalls].trim()) : 0,
                        means, samples, callLength >= 0 ? durationMs(f[callLength]) : null, sum(f, callLengthBuckets)));
            } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
                return Optional.empty();
            }
        }

        long startMicros(String[] f) {
            return epochMicros(f[start]);
        }

        Snapshot zeroAt(long micros) {
            Map<String, Long> zero = new HashMap<>();
            counters.keySet().forEach(k -> zero.put(k, 0L));
            Map<String, Long> noSamples = new HashMap<>();
            responseTimeBuckets.forEach((k, buckets) -> {
                if (!buckets.isEmpty()) {
                    noSamples.put(k, 0L);
                }
            });
            return new Snapshot(micros, zero, 0, Map.of(), noSamples, null, 0);
        }

        private static long sum(String[] f, List<Integer> columns) {
            long s = 0;
            for (int i : columns) {
                s += Long.parseLong(f[i].trim());
            }
            return s;
        }
    }

    /** "2026-11-24 TAB 04:12:45.231368 TAB 1795493565.231368": the epoch part; without it, the local time. */
    static long epochMicros(String field) {
        String t = field.trim();
        int tab = t.lastIndexOf('\t');
        if (tab >= 0) {
            String epoch = t.substring(tab + 1).trim();
            int dot = epoch.indexOf('.');
            if (dot < 0) {
                return Math.multiplyExact(Long.parseLong(epoch), 1_000_000L);
            }
            String frac = (epoch.substring(dot + 1) + "000000").substring(0, 6);
            return Math.addExact(Math.multiplyExact(Long.parseLong(epoch.substring(0, dot)), 1_000_000L), Long.parseLong(frac));
        }
        Instant local = LocalDateTime.parse(t.replace('\t', ' '), LOCAL).atZone(ZoneId.systemDefault()).toInstant();
        return perflab.core.load.LoadPeriod.micros(local);
    }

    /** "HH:MM:SS:uuuuuu", SIPp's periodic and cumulative durations, in ms. */
    static double durationMs(String field) {
        String[] p = field.trim().split(":");
        if (p.length != 4) {
            throw new NumberFormatException("not a SIPp duration: " + field);
        }
        return Long.parseLong(p[0]) * 3_600_000.0 + Long.parseLong(p[1]) * 60_000.0 + Long.parseLong(p[2]) * 1000.0
                + Long.parseLong(p[3]) / 1000.0;
    }

    public Path file() {
        return file;
    }

    /** Lines that could not be read: a last line SIPp was writing, or damaged rows. */
    public int skippedLines() {
        return skippedLines;
    }

    /** SIPp's StartTime, if it wrote a row. */
    public Optional<Instant> startTime() {
        return snapshots.isEmpty() ? Optional.empty() : Optional.of(instant(snapshots.get(0).epochMicros()));
    }

    /** Every period, in order: the first runs from SIPp's StartTime to its first row. */
    public List<SipSecond> seconds() {
        List<SipSecond> out = new ArrayList<>();
        for (int i = 1; i < snapshots.size(); i++) {
            Snapshot a = snapshots.get(i - 1);
            Snapshot b = snapshots.get(i);
            out.add(new SipSecond(a.epochMicros(), b.epochMicros(), created(b) - created(a),
                    b.count("SuccessfulCall") - a.count("SuccessfulCall"), b.count("FailedCall") - a.count("FailedCall"),
                    b.count("Retransmissions") - a.count("Retransmissions"), b.currentCalls(), periodMeans(a, b)));
        }
        return List.copyOf(out);
    }

    /** The figures of the whole run, from SIPp's start to its last row. */
    public SipLoadFigures total() {
        return snapshots.isEmpty() ? figures(Instant.EPOCH, Instant.EPOCH)
                : figures(instant(snapshots.get(0).epochMicros()), instant(snapshots.get(snapshots.size() - 1).epochMicros()));
    }

    /**
     * The figures of the periods that lie wholly inside [start, end] (wall clock). A period that straddles an end
     * is left out, not prorated: calls are whole events and the per-period rows must add up to the window's
     * figures, so the window's figures cover {@code seconds} (up to about a period less at each end than the
     * window), and rates are divided by that span.
     */
    public SipLoadFigures figures(Instant start, Instant end) {
        long from = perflab.core.load.LoadPeriod.micros(start);
        long to = perflab.core.load.LoadPeriod.micros(end);
        int first = -1;
        int last = -1;
        for (int i = 0; i < snapshots.size(); i++) {
            long t = snapshots.get(i).epochMicros();
            if (t >= from && first < 0) {
                first = i;
            }
            if (t <= to) {
                last = i;
            }
        }
        if (snapshots.isEmpty() || first < 0 || last <= first) {
            String why = snapshots.isEmpty()
                    ? "SIPp wrote no statistics row (" + file + ")"
                    : "no whole SIPp statistics period lies inside the window (its rows run from "
                    + instant(snapshots.get(0).epochMicros()) + " to " + instant(snapshots.get(snapshots.size() - 1).epochMicros()) + ")";
            return empty(start, end, why);
        }
        Snapshot a = snapshots.get(first);
        Snapshot b = snapshots.get(last);
        double seconds = (b.epochMicros() - a.epochMicros()) / 1e6;
        Map<String, Long> failed = new HashMap<>();
        Map<String, Long> others = new HashMap<>();
        for (String name : b.counters().keySet()) {
            long d = b.count(name) - a.count(name);
            if (d == 0 || KNOWN.contains(name)) {
                continue;
            }
            if (name.startsWith("Failed")) {
                failed.put(name.substring("Failed".length()), d);
            } else {
                others.put(name, d);
            }
        }
        long maxCurrent = 0;
        for (int i = first + 1; i <= last; i++) {
            maxCurrent = Math.max(maxCurrent, snapshots.get(i).currentCalls());
        }
        long created = created(b) - created(a);
        long successful = b.count("SuccessfulCall") - a.count("SuccessfulCall");
        String note = skippedLines > 0 ? skippedLines + " line(s) of " + file.getFileName() + " could not be read (SIPp stopped mid-write?)" : null;
        return new SipLoadFigures(a.epochMicros(), b.epochMicros(), seconds, last - first, created,
                b.count("IncomingCall") - a.count("IncomingCall"), b.count("OutgoingCall") - a.count("OutgoingCall"),
                successful, b.count("FailedCall") - a.count("FailedCall"), failed,
                seconds > 0 ? created / seconds : 0, seconds > 0 ? successful / seconds : 0,
                b.count("Retransmissions") - a.count("Retransmissions"), b.count("OutOfCallMsgs") - a.count("OutOfCallMsgs"),
                b.count("DeadCallMsgs") - a.count("DeadCallMsgs"), others, maxCurrent,
                responseTimes(first, last), callLengthMean(first, last), note);
    }

    /** No figures for [start, end], and why. */
    public static SipLoadFigures empty(Instant start, Instant end, String why) {
        return new SipLoadFigures(perflab.core.load.LoadPeriod.micros(start), perflab.core.load.LoadPeriod.micros(end), 0, 0, 0, 0, 0, 0, 0, Map.of(), 0, 0,
                0, 0, 0, Map.of(), 0, Map.of(), null, why);
    }

    private static final List<String> KNOWN = List.of("IncomingCall", "OutgoingCall", "TotalCallCreated", "SuccessfulCall",
            "FailedCall", "Retransmissions", "OutOfCallMsgs", "DeadCallMsgs");

    private static long created(Snapshot s) {
        return s.counters().containsKey("TotalCallCreated") ? s.count("TotalCallCreated")
                : s.count("IncomingCall") + s.count("OutgoingCall");
    }

    /** The period's means, for the rtds that had samples in it. */
    private static Map<String, Double> periodMeans(Snapshot a, Snapshot b) {
        Map<String, Double> means = new HashMap<>();
        b.responseTimeMeanMs().forEach((rtd, mean) -> {
            if (weight(a, b, rtd) > 0) {
                means.put(rtd, mean);
            }
        });
        return means;
    }

    /**
     * Samples of an rtd in a period: the growth of its (cumulative) response-time repartition; without one, the
     * calls that succeeded in it.
     */
    private static long weight(Snapshot a, Snapshot b, String rtd) {
        return b.responseTimeSamples().containsKey(rtd)
                ? b.responseTimeSamples().get(rtd) - a.responseTimeSamples().getOrDefault(rtd, 0L)
                : b.count("SuccessfulCall") - a.count("SuccessfulCall");
    }

    private Map<String, SipResponseTime> responseTimes(int first, int last) {
        Map<String, SipResponseTime> out = new HashMap<>();
        long from = snapshots.get(first).epochMicros();
        long to = snapshots.get(last).epochMicros();
        // a sample's time comes from SIPp's coarse monotonic clock (a kernel tick), the rows' from the wall clock: at
        // the run's own first and last row a sample can land a tick outside while it belongs to the run (the first
        // call answered within SIPp's first tick reads Date_ms 0, exactly the first row's time). A window that starts
        // or ends there takes them; windows inside the run cut by time as before.
        boolean runStart = first == 0;
        boolean runEnd = last == snapshots.size() - 1;
        Map<String, List<Double>> traced = new HashMap<>();
        for (RttSample s : rtt) {
            if ((runStart || s.epochMicros() > from) && (runEnd || s.epochMicros() <= to)) {
                traced.computeIfAbsent(s.rtd(), k -> new ArrayList<>()).add(s.ms());
            }
        }
        for (String rtd : snapshots.get(last).responseTimeMeanMs().keySet()) {
            List<Double> samples = traced.get(rtd);
            if (samples != null) {
                out.put(rtd, fromSamples(samples));
                continue;
            }
            long n = 0;
            double sum = 0;
            for (int i = first + 1; i <= last; i++) {
                long w = weight(snapshots.get(i - 1), snapshots.get(i), rtd);
                n += w;
                sum += w * snapshots.get(i).responseTimeMeanMs().get(rtd);
            }
            if (n > 0) {
                out.put(rtd, new SipResponseTime(n, sum / n, null, null, null, null, "trace_stat"));
            }
        }
        traced.forEach((rtd, samples) -> out.putIfAbsent(rtd, fromSamples(samples)));
        return out;
    }

    private static SipResponseTime fromSamples(List<Double> samples) {
        double[] v = samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double mean = Arrays.stream(v).average().orElse(0);
        return new SipResponseTime(v.length, mean, rank(v, 50), rank(v, 90), rank(v, 99), v[v.length - 1], "trace_rtt");
    }

    /** Nearest-rank percentile: a value that was measured, as with the driver's histograms. */
    private static double rank(double[] sorted, double percent) {
        int i = (int) Math.ceil(percent / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private Double callLengthMean(int first, int last) {
        long n = 0;
        double sum = 0;
        for (int i = first + 1; i <= last; i++) {
            Snapshot b = snapshots.get(i);
            long w = b.callLengthSamples() - snapshots.get(i - 1).callLengthSamples();
            if (w > 0 && b.callLengthMeanMs() != null) {
                n += w;
                sum += w * b.callLengthMeanMs();
            }
        }
        return n > 0 ? sum / n : null;
    }

    private static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    }
}

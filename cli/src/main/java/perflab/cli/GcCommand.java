package perflab.cli;

import perflab.core.result.gc.GcAnalysis;
import perflab.monitor.gc.GcLogAnalyzer;
import perflab.monitor.gc.GcTable;
import perflab.monitor.gc.UnknownGcLogFormatException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;

@Command(name = "gc", mixinStandardHelpOptions = true,
        description = {"Analyse a HotSpot unified GC log (-Xlog:gc*, JDK 9+; Serial, Parallel, G1, ZGC, Shenandoah): "
                + "collections, pauses, GC overhead, live set, allocation rate, cascades.",
                "Example: perflab gc results/<run>/gc.log --from 2025-06-01T12:00:00Z --to 2025-06-01T12:05:00Z"})
final class GcCommand implements Callable<Integer> {
    private static final DateTimeFormatter HOTSPOT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    @Parameters(index = "0", paramLabel = "GC_LOG", description = "The GC log (e.g. a run's gc.log, or one from production).")
    Path log;

    @Option(names = "--json", description = "Print the analysis as JSON (summary.json's `gc` keys) instead of a table.")
    boolean json;

    @Option(names = "--from", paramLabel = "TIME", description = "Count only from this wall-clock time: ISO-8601 (2025-06-01T12:00:00Z, "
            + "2025-06-01T14:00:00.000+0200 as in the log, or local 2025-06-01T14:00:00) or epoch ms. Needs the log's time decoration.")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "Count only up to this wall-clock time (same forms as --from).")
    String to;

    @Option(names = "--cascade-threshold", paramLabel = "SHARE", defaultValue = "0.5",
            description = "A second is a GC cascade when pauses leave the application less than this share of it (0..1; default ${DEFAULT-VALUE}).")
    double cascadeThreshold;

    @Override
    public Integer call() throws IOException {
        if (!(cascadeThreshold >= 0 && cascadeThreshold <= 1)) {
            throw new IllegalArgumentException("--cascade-threshold must be between 0 and 1, got " + cascadeThreshold);
        }
        long fromMs = from == null ? Long.MIN_VALUE : time("--from", from);
        long toMs = to == null ? Long.MAX_VALUE : time("--to", to);
        if (fromMs > toMs) {
            throw new IllegalArgumentException("--from " + from + " is after --to " + to);
        }
        if (!Files.isRegularFile(log)) {
            throw new IllegalArgumentException(Files.exists(log) ? log + " is not a file; give a GC log file"
                    : "no such file: " + log);
        }
        GcAnalysis analysis;
        try {
            analysis = new GcLogAnalyzer().analyze(log, fromMs, toMs, cascadeThreshold);
        } catch (UnknownGcLogFormatException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        System.out.print(json ? GcTable.json(analysis) + System.lineSeparator() : GcTable.render(analysis));
        return 0;
    }

    static long time(String flag, String value) {
        String v = value.trim();
        if (v.matches("\\d{9,}")) {
            return Long.parseLong(v);
        }
        try {
            return Instant.parse(v).toEpochMilli();
        } catch (DateTimeParseException e) {
            // try the next form
        }
        try {
            return OffsetDateTime.parse(v).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            // next
        }
        try {
            return OffsetDateTime.parse(v, HOTSPOT_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            // next
        }
        try {
            return LocalDateTime.parse(v).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(flag + ": '" + value + "' is not a time; use ISO-8601 such as "
                    + "2025-06-01T12:00:00Z or 2025-06-01T14:00:00.000+0200, or epoch ms");
        }
    }
}

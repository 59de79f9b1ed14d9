package perflab.monitor.gc;

import perflab.core.result.gc.GcAnalysis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Analyses a HotSpot unified GC log (JDK 9+, {@code -Xlog:gc*}) of Serial, Parallel, G1, ZGC (single-generation
 * and generational) or Shenandoah into {@link GcAnalysis}, counting only what happened in a wall-clock window.
 * The log is read line by line ({@link GcLogAccumulator}); nothing but totals and per-second buckets is kept.
 */
public final class GcLogAnalyzer {

    /** The whole log, default cascade threshold. */
    public GcAnalysis analyze(Path gcLog) throws IOException {
        return analyze(gcLog, Long.MIN_VALUE, Long.MAX_VALUE, GcAnalysis.DEFAULT_CASCADE_THRESHOLD);
    }

    /**
     * @param fromEpochMs      window start, epoch ms inclusive ({@link Long#MIN_VALUE}: the log's start)
     * @param toEpochMs        window end, epoch ms inclusive ({@link Long#MAX_VALUE}: the log's end)
     * @param cascadeThreshold a second is a cascade when GC pauses leave the application less than this share
     *                         of it ({@link GcAnalysis#DEFAULT_CASCADE_THRESHOLD})
     * @throws UnknownGcLogFormatException when the file is not a unified GC log this analyzer knows
     */
    public GcAnalysis analyze(Path gcLog, long fromEpochMs, long toEpochMs, double cascadeThreshold)
            throws IOException {
        // ISO-8859-1 never fails to decode, so a binary or foreign file gets the format error, not a charset one.
        try (BufferedReader in = Files.newBufferedReader(gcLog, StandardCharsets.ISO_8859_1)) {
            return analyze(in, gcLog.toString(), fromEpochMs, toEpochMs, cascadeThreshold);
        }
    }

    /**
     * The log of a JVM that is still running: its lines are complete up to {@code logCurrentAtEpochMs} (now),
     * so a window that ends in a quiet stretch keeps its full length (see {@link GcLogAccumulator#logCurrentAt}).
     */
    public GcAnalysis analyzeLive(Path gcLog, long fromEpochMs, long toEpochMs, double cascadeThreshold,
                                  long logCurrentAtEpochMs) throws IOException {
        GcLogAccumulator acc = new GcLogAccumulator(gcLog.toString(), fromEpochMs, toEpochMs, cascadeThreshold);
        try (BufferedReader in = Files.newBufferedReader(gcLog, StandardCharsets.ISO_8859_1)) {
            for (String l = in.readLine(); l != null; l = in.readLine()) {
                acc.accept(l);
            }
        }
        acc.logCurrentAt(logCurrentAtEpochMs);
        return acc.result();
    }

    /** The streaming form over any reader; {@code source} names the log in error messages. */
    public GcAnalysis analyze(Reader log, String source, long fromEpochMs, long toEpochMs, double cascadeThreshold)
            throws IOException {
        GcLogAccumulator acc = new GcLogAccumulator(source, fromEpochMs, toEpochMs, cascadeThreshold);
        BufferedReader in = log instanceof BufferedReader b ? b : new BufferedReader(log);
        for (String l = in.readLine(); l != null; l = in.readLine()) {
            acc.accept(l);
        }
        return acc.result();
    }
}

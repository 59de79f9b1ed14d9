package perflab.loadsource.sipp;

import perflab.core.result.Json;
import perflab.core.result.LoadFigures;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A SIPp load source's figures over a measured window: summary.json's {@code loads.<name>} holds them as a
 * {@link LoadFigures} ({@link #toLoadFigures}), every field but the window's own under {@code figures}. Only SIPp
 * statistics periods that lie wholly inside the window count (see {@link SippStatistics#figures}); {@code seconds}
 * is the span they cover, and every rate is divided by it, not by the window's length.
 *
 * @param failedByReason    failed calls by SIPp's reason, its column name without "Failed" (MaxUDPRetrans,
 *                          TimeoutOnRecv, UnexpectedMessage, ...), only reasons that occurred
 * @param counters          every other cumulative counter that moved: SIPp's (AutoAnswered, Warnings, FatalErrors,
 *                          WatchdogMajor, ...) and the scenario's own counters, by column name without "(C)"
 * @param maxCurrentCalls   most calls open at a period's end
 * @param responseTimesMs   per rtd of the scenario ("1" for the built-in uac)
 * @param callLengthMeanMs  mean length of the calls that ended in the window, null when none did
 * @param note              null, or why the figures are empty or partial
 */
public record SipLoadFigures(long fromEpochMicros, long toEpochMicros, double seconds, int periods,
                             long callsCreated, long incomingCalls, long outgoingCalls,
                             long successfulCalls, long failedCalls, Map<String, Long> failedByReason,
                             double callsPerSecond, double successfulPerSecond,
                             long retransmissions, long outOfCallMessages, long deadCallMessages,
                             Map<String, Long> counters, long maxCurrentCalls,
                             Map<String, SipResponseTime> responseTimesMs, Double callLengthMeanMs, String note) {
    public SipLoadFigures {
        failedByReason = sorted(failedByReason);
        counters = sorted(counters);
        responseTimesMs = sorted(responseTimesMs);
    }

    /** As summary.json's {@code loads.<name>} holds them: calls as the unit, this record's own fields as figures. */
    public LoadFigures toLoadFigures() {
        @SuppressWarnings("unchecked")
        Map<String, Object> own = new LinkedHashMap<>(Json.MAPPER.convertValue(this, Map.class));
        for (String window : new String[] {"fromEpochMicros", "toEpochMicros", "seconds", "periods", "note"}) {
            own.remove(window);
        }
        return new LoadFigures(SippLoad.KIND, "call", fromEpochMicros, toEpochMicros, seconds, periods, callsCreated,
                successfulCalls, failedCalls, own, line(), note);
    }

    /** A SIPp load's figures read back from summary.json ({@link #toLoadFigures}, or a summary's older shape). */
    public static SipLoadFigures of(LoadFigures f) {
        Map<String, Object> all = new LinkedHashMap<>(f.figures());
        all.put("fromEpochMicros", f.fromEpochMicros());
        all.put("toEpochMicros", f.toEpochMicros());
        all.put("seconds", f.seconds());
        all.put("periods", f.periods());
        all.put("note", f.note());
        return Json.MAPPER.convertValue(all, SipLoadFigures.class);
    }

    /** The window in one line: calls and their rate, failures by reason, retransmissions, each response time. */
    public String line() {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "%d calls in %.1f s (%.2f/s), %d ok, %d failed%s, %d retransmissions, at most %d open",
                callsCreated, seconds, callsPerSecond, successfulCalls, failedCalls,
                failedByReason.isEmpty() ? "" : " " + failedByReason, retransmissions, maxCurrentCalls));
        responseTimesMs.forEach((rtd, rt) -> line.append(rt.p99Ms() == null
                ? String.format(Locale.ROOT, "; rtd %s mean %.1f ms", rtd, rt.meanMs())
                : String.format(Locale.ROOT, "; rtd %s p50 %.1f p99 %.1f max %.1f ms", rtd, rt.p50Ms(), rt.p99Ms(), rt.maxMs())));
        if (note != null) {
            line.append(" (").append(note).append(')');
        }
        return line.toString();
    }

    /** Sorted, so that summary.json lists the keys in the same order every run. */
    private static <V> Map<String, V> sorted(Map<String, V> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(m));
    }
}

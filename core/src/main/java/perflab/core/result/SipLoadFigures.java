package perflab.core.result;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A SIPp load source's figures over a measured window, for summary.json's {@code loads.<name>}. Only SIPp
 * statistics periods that lie wholly inside the window count (see perflab.experiment.load.SippStatistics#figures); {@code seconds}
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

    /** Sorted, so that summary.json lists the keys in the same order every run. */
    private static <V> Map<String, V> sorted(Map<String, V> m) {
        return Collections.unmodifiableMap(new TreeMap<>(m));
    }
}

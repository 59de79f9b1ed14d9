package perflab.voicemail.lean.web;

import perflab.voicemail.lean.ConvergedCalls.CallEnd;
import perflab.voicemail.lean.replica.FirstMoment;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** What the web side counted, and the stats page that shows it with the SIP side's counters. */
final class WebCounters {
    final LongAdder pages = new LongAdder();
    final LongAdder clicks = new LongAdder();
    /** Clicks sent again for a call already being set up or up here (a proxy's retry after a kill): not new calls. */
    final LongAdder clicksAgain = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder forbidden = new LongAdder();
    /** Browsers whose session came over from a failed partner instance. */
    final LongAdder takenOver = new LongAdder();
    final FirstMoment firstTakenOver = new FirstMoment();
    /** Web sessions a member that came back after a failure took back from their copies (its own users'). */
    final LongAdder takenBack = new LongAdder();
    final FirstMoment firstTakenBack = new FirstMoment();
    /** Sessions whose call went back to the user's home instance: ended here, not an operation. */
    final LongAdder handedBack = new LongAdder();
    /** Clicks whose call could not be set up, by reason. */
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    /** Hang-ups that failed, by reason (the call itself ends as {@link CallEnd#FAILED} or was already over). */
    private final Map<String, LongAdder> hangupFailures = new ConcurrentHashMap<>();
    private final Map<CallEnd, LongAdder> ends = new EnumMap<>(CallEnd.class);

    WebCounters() {
        for (CallEnd e : CallEnd.values()) {
            ends.put(e, new LongAdder());
        }
    }

    void setupFailed(String reason) {
        failures.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    void hangupFailed(String reason) {
        hangupFailures.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    /** One converged operation over: a user whose calls ended, whoever ended them. */
    void ended(CallEnd end) {
        ends.get(end).increment();
    }

    /**
     * The stats page: counter names are the code's own words, never user input, so nothing needs escaping.
     *
     * @param latencies the SIP side's histograms: {@code "latencyUs":{"<name>":{"le":{"<µs>":count,...}}}}, each
     *                  bucket's count since the start by its inclusive upper bound (perflab's {@code H.le.<µs>})
     */
    String json(int liveSessions, int liveSipUsers, int settingUp, Map<String, Long> sip,
                Map<String, Map<Long, Long>> latencies) {
        StringBuilder b = new StringBuilder(1024).append('{');
        b.append("\"liveSessions\":").append(liveSessions).append(",\"liveSipUsers\":").append(liveSipUsers)
                .append(",\"settingUp\":").append(settingUp)
                .append(",\"pages\":").append(pages.sum()).append(",\"clicks\":").append(clicks.sum())
                .append(",\"clicksAgain\":").append(clicksAgain.sum())
                .append(",\"refused\":").append(refused.sum()).append(",\"forbidden\":").append(forbidden.sum())
                .append(",\"takenOver\":").append(takenOver.sum())
                .append(",\"firstTakenOverEpochMs\":").append(firstTakenOver.epochMs())
                .append(",\"takenBack\":").append(takenBack.sum())
                .append(",\"firstTakenBackEpochMs\":").append(firstTakenBack.epochMs())
                .append(",\"handedBack\":").append(handedBack.sum())
                .append(",\"operations\":");
        Map<String, Long> operations = new TreeMap<>();
        ends.forEach((end, n) -> {
            if (end != CallEnd.HANDED_BACK) { // not an operation: handedBack
                operations.put(end.name().toLowerCase(Locale.ROOT).replace('_', '-'), n.sum());
            }
        });
        object(b, operations);
        b.append(",\"failures\":");
        object(b, sums(failures));
        b.append(",\"hangupFailures\":");
        object(b, sums(hangupFailures));
        b.append(",\"sip\":");
        object(b, new TreeMap<>(sip));
        b.append(",\"latencyUs\":{");
        String sep = "";
        for (Map.Entry<String, Map<Long, Long>> h : new TreeMap<>(latencies).entrySet()) {
            b.append(sep).append('"').append(h.getKey()).append("\":{\"le\":{");
            String inner = "";
            for (Map.Entry<Long, Long> bucket : h.getValue().entrySet()) {
                b.append(inner).append('"').append(bucket.getKey()).append("\":").append(bucket.getValue());
                inner = ",";
            }
            b.append("}}");
            sep = ",";
        }
        b.append('}');
        return b.append('}').toString();
    }

    private static Map<String, Long> sums(Map<String, LongAdder> counts) {
        Map<String, Long> sums = new TreeMap<>();
        counts.forEach((reason, n) -> sums.put(reason, n.sum()));
        return sums;
    }

    private static void object(StringBuilder b, Map<String, Long> map) {
        b.append('{');
        String sep = "";
        for (Map.Entry<String, Long> e : map.entrySet()) {
            b.append(sep).append('"').append(e.getKey()).append("\":").append(e.getValue());
            sep = ",";
        }
        b.append('}');
    }
}

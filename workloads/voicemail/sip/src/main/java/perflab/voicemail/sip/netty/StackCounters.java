package perflab.voicemail.sip.netty;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The stack's counters. Written only on the I/O thread (every message in and out passes there), so plain longs;
 * read by a snapshot taken on that thread. Keys are made once per method and status class: no string building per
 * message. Methods outside the known set count as {@code OTHER}, so hostile input cannot grow the map.
 */
final class StackCounters {
    static final Set<String> KNOWN_METHODS = Set.of("INVITE", "ACK", "BYE", "CANCEL", "OPTIONS", "REGISTER",
            "SUBSCRIBE", "NOTIFY", "REFER", "INFO", "UPDATE", "PRACK", "MESSAGE", "PUBLISH");

    private final Map<String, long[]> cells = new HashMap<>();
    private final Map<String, long[]> requestsIn = new HashMap<>();
    private final Map<String, long[]> requestsOut = new HashMap<>();
    private final long[][] responsesIn = new long[7][];
    private final long[][] responsesOut = new long[7][];

    StackCounters() {
        for (String method : KNOWN_METHODS) {
            requestsIn.put(method, cell("sip.in.requests." + method));
            requestsOut.put(method, cell("sip.out.requests." + method));
        }
        requestsIn.put("OTHER", cell("sip.in.requests.OTHER"));
        requestsOut.put("OTHER", cell("sip.out.requests.OTHER"));
        for (int c = 1; c <= 6; c++) {
            responsesIn[c] = cell("sip.in.responses." + c + "xx");
            responsesOut[c] = cell("sip.out.responses." + c + "xx");
        }
        for (String name : new String[] {"sip.retransmissions.sent", "sip.retransmissions.absorbed",
            "sip.timeouts", "sip.datagrams.in", "sip.datagrams.out"}) {
            cell(name);
        }
    }

    private long[] cell(String name) {
        return cells.computeIfAbsent(name, n -> new long[1]);
    }

    void add(String name) {
        cell(name)[0]++;
    }

    void requestIn(String method) {
        requestsIn.getOrDefault(method, requestsIn.get("OTHER"))[0]++;
    }

    void requestOut(String method) {
        requestsOut.getOrDefault(method, requestsOut.get("OTHER"))[0]++;
    }

    void responseIn(int status) {
        responsesIn[status / 100][0]++;
    }

    void responseOut(int status) {
        responsesOut[status / 100][0]++;
    }

    /** A dropped datagram; {@code reason} comes from a fixed vocabulary (the parser's and the dispatcher's words). */
    void dropped(String reason) {
        add("sip.dropped." + reason);
    }

    /** A request answered with an error by the stack itself (400, 405, 481, 500, 501). */
    void rejected(String reason) {
        add("sip.rejected." + reason);
    }

    Map<String, Long> snapshot(int liveTransactions, int liveDialogs) {
        Map<String, Long> out = new TreeMap<>();
        cells.forEach((name, value) -> out.put(name, value[0]));
        out.put("sip.transactions.live", (long) liveTransactions);
        out.put("sip.dialogs.live", (long) liveDialogs);
        return out;
    }
}

package perflab.voicemail;

import perflab.core.result.RunSummary;
import perflab.core.result.ServerWindow;
import perflab.core.result.LoadFigures;
import perflab.core.workload.CapacityMeasure;
import perflab.core.workload.ServerCounters;
import perflab.loadsource.sipp.SipLoadFigures;
import perflab.loadsource.sipp.SipResponseTime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * voicemail's figures of the measured window (issue 11 section 4), summary.json's {@code figures}: what the
 * server's own counters ({@code GET /voicemail/stats}, sampled each second: {@link #COUNTERS}), the driver, the SIPp
 * peers, the GC log and the SUT's CPU say together. Pure: every figure is arithmetic on the summary.
 */
final class VoicemailFigures {
    /** The stats page as perflab's server counters: its gauges, and its latency histograms (µs buckets). */
    static final ServerCounters COUNTERS = new ServerCounters(VoicemailPages.STATS,
            Set.of("liveSessions", "liveSipUsers", "settingUp", "sip.calls.live-users", "sip.sip.transactions.live",
                    "sip.sip.dialogs.live", Names.REPLICATION_MEMBERS, Names.REPLICATION_HELD, Names.PARTNER_LOST_AT,
                    Names.FIRST_CALL_TAKEN_OVER_AT, Names.FIRST_PAGE_TAKEN_OVER_AT, Names.FIRST_CALL_TAKEN_BACK_AT,
                    Names.FIRST_PAGE_TAKEN_BACK_AT, Names.HELD_AT_JOIN),
            Set.of(Names.NOTIFY_TO_200, Names.SRD, Names.SRD_PHONE, Names.SRD_LINE));

    /** The stats page's counter names, flattened. */
    /** The study's bound on NOTIFY-to-200 at capacity (seed 004: p95 under 60 ms). */
    static final double NOTIFY_P95_GOAL_MS = 60;

    /**
     * A capacity trial of voicemail: the rate is new users per second, carried when as many converged operations
     * finished per second; the latency is p95 NOTIFY-to-200 as the SUT measured it; a failure is anything the
     * driver, the SUT or a SIPp peer counted as failed (a click refused at the door included: past capacity, users
     * are turned away). An event two of them counted is counted twice, which does not matter for "zero".
     */
    static final CapacityMeasure CAPACITY = new CapacityMeasure("users/s", "p95 NOTIFY-to-200", NOTIFY_P95_GOAL_MS,
            s -> CapacityMeasure.figure(s, "convergedOperationsPerSecond"),
            s -> CapacityMeasure.figure(s, "notifyTo200Ms", "p95"),
            s -> CapacityMeasure.driverErrors(s) + count(s, "failedCalls") + count(s, "sippFailedCalls", "total"));

    private static long count(RunSummary s, String... path) {
        Double v = CapacityMeasure.figure(s, path);
        return v == null ? 0 : v.longValue();
    }

    static final class Names {
        static final String NOTIFY_TO_200 = "latencyUs.notify-to-200";
        static final String SRD = "latencyUs.srd";
        static final String SRD_PHONE = "latencyUs.srd-phone";
        static final String SRD_LINE = "latencyUs.srd-line";
        static final String PHONE_HANGUPS = "operations.phone-hangup";
        static final String WEB_HANGUPS = "operations.web-hangup";
        static final String FAILED_MID_CALL = "operations.failed";
        static final String SETUP_FAILURES = "failures.";
        static final String CLICKS = "clicks";
        static final String REFUSED = "refused";
        static final String DATAGRAMS_IN = "sip.sip.datagrams.in";
        static final String DATAGRAMS_OUT = "sip.sip.datagrams.out";
        static final String RETRANSMISSIONS_SENT = "sip.sip.retransmissions.sent";
        static final String RETRANSMISSIONS_ABSORBED = "sip.sip.retransmissions.absorbed";
        static final String INVITES = "sip.calls.invites.";
        static final String INVITES_ANSWERED = "sip.calls.invites-answered.";
        static final String LIVE_SESSIONS = "liveSessions";
        static final String TAKEN_OVER_CALLS = "sip.calls.taken-over";
        static final String TAKEN_OVER_SESSIONS = "takenOver";
        static final String SETUPS_RESTARTED = "sip.calls.setups-restarted";
        static final String SETUP_PEER_CALLS_ABANDONED = "sip.calls.setups-restarted.peer-calls-abandoned";
        static final String CLICKS_AGAIN = "clicksAgain";
        static final String REPLICATION_WRITES = "sip.replication.writes";
        static final String REPLICATION_BYTES = "sip.replication.bytes";
        static final String REPLICATION_FAILURES = "sip.replication.failures";
        static final String REPLICATION_MEMBERS = "sip.replication.members";
        static final String REPLICATION_HELD = "sip.replication.held";
        static final String PARTNER_LOST_AT = "sip.replication.partner-lost-epoch-ms";
        static final String FIRST_CALL_TAKEN_OVER_AT = "sip.calls.first-taken-over-epoch-ms";
        static final String FIRST_PAGE_TAKEN_OVER_AT = "firstTakenOverEpochMs";
        static final String TAKEN_BACK_CALLS = "sip.calls.taken-back";
        static final String TAKEN_BACK_SESSIONS = "takenBack";
        static final String HANDED_BACK_CALLS = "sip.calls.handed-back";
        static final String FIRST_CALL_TAKEN_BACK_AT = "sip.calls.first-taken-back-epoch-ms";
        static final String FIRST_PAGE_TAKEN_BACK_AT = "firstTakenBackEpochMs";
        static final String HELD_AT_JOIN = "sip.replication.held-at-join";

        private Names() {
        }
    }

    /** How the SUT's latencies are read: say so beside each. */
    static final String SUT_PRECISION = "SUT, log-linear buckets of 1/16 of a power of two: the bucket's upper bound, "
            + "at most 6.25% above the value";

    private VoicemailFigures() {
    }

    static Map<String, Object> of(RunSummary s) {
        Map<String, Object> f = new LinkedHashMap<>();
        ServerWindow w = s.server();
        double seconds = s.durationSeconds();
        if (w != null && w.seconds() > 0) {
            double ws = w.seconds();
            double operations = w.delta(Names.PHONE_HANGUPS) + w.delta(Names.WEB_HANGUPS);
            f.put("convergedOperations", (long) operations);
            f.put("convergedOperationsPerSecond", round(operations / ws));
            f.put("convergedOperationsPerHour", round(operations / ws * 3600));
        }
        if (seconds > 0) {
            f.put("httpRequestsPerSecond", round(s.requests() / seconds));
        }
        if (w != null && w.seconds() > 0) {
            double in = w.delta(Names.DATAGRAMS_IN);
            double out = w.delta(Names.DATAGRAMS_OUT);
            f.put("sipMessagesPerSecond", round((in + out) / w.seconds()));
            f.put("sipMessagesInPerSecond", round(in / w.seconds()));
            f.put("sipMessagesOutPerSecond", round(out / w.seconds()));
            Map<String, Object> byReason = new LinkedHashMap<>();
            long failed = 0;
            for (Map.Entry<String, Double> e : w.deltas(Names.SETUP_FAILURES).entrySet()) {
                if (e.getValue() > 0) {
                    byReason.put(e.getKey(), e.getValue().longValue());
                    failed += e.getValue().longValue();
                }
            }
            long midCall = (long) w.delta(Names.FAILED_MID_CALL);
            if (midCall > 0) {
                byReason.put("mid-call", midCall);
            }
            f.put("failedCalls", failed + midCall);
            f.put("failedCallsByReason", byReason);
            f.put("refusedClicks", refused(w));
        }
        Map<String, Object> sippFailed = new LinkedHashMap<>();
        long sippFailedTotal = 0;
        long sippRetransmissions = 0;
        Map<String, Object> sippRetransmissionsByLoad = new LinkedHashMap<>();
        for (Map.Entry<String, LoadFigures> e : s.loads().entrySet()) {
            SipLoadFigures peer = SipLoadFigures.of(e.getValue());
            sippFailed.put(e.getKey(), peer.failedCalls());
            sippFailedTotal += peer.failedCalls();
            sippRetransmissionsByLoad.put(e.getKey(), peer.retransmissions());
            sippRetransmissions += peer.retransmissions();
        }
        if (!s.loads().isEmpty()) {
            Map<String, Object> peers = new LinkedHashMap<>();
            peers.put("total", sippFailedTotal);
            peers.put("byLoad", sippFailed);
            f.put("sippFailedCalls", peers);
        }
        if (s.failover() != null) {
            failover(f, s, w, sippFailedTotal);
        } else if (s.proxyRestart() != null) {
            // the proxies restarted (--restart-proxy-at): what the users saw fail, as a fail-over counts it
            f.put("lostCalls", sippFailedTotal + s.errors().getOrDefault("total", 0L));
        }
        Map<String, Object> retransmissions = new LinkedHashMap<>();
        if (!s.loads().isEmpty()) {
            retransmissions.put("sipp", sippRetransmissions);
            retransmissions.put("sippByLoad", sippRetransmissionsByLoad);
        }
        if (w != null) {
            retransmissions.put("sutSent", (long) w.delta(Names.RETRANSMISSIONS_SENT));
            retransmissions.put("sutAbsorbed", (long) w.delta(Names.RETRANSMISSIONS_ABSORBED));
        }
        if (!retransmissions.isEmpty()) {
            f.put("retransmissions", retransmissions);
        }
        if (w != null) {
            latency(f, "notifyTo200Ms", w.latencies().get(Names.NOTIFY_TO_200));
        }
        SipLoadFigures notifier = s.loads().containsKey(VoicemailWorkload.NOTIFIER)
                ? SipLoadFigures.of(s.loads().get(VoicemailWorkload.NOTIFIER)) : null;
        SipResponseTime sipp = notifier == null ? null : notifier.responseTimesMs().get("notify");
        if (sipp != null && sipp.count() > 0) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("count", sipp.count());
            m.put("mean", sipp.meanMs());
            put(m, "p50", sipp.p50Ms());
            put(m, "p90", sipp.p90Ms());
            put(m, "p99", sipp.p99Ms());
            put(m, "max", sipp.maxMs());
            m.put("source", "SIPp notifier rtd notify (" + sipp.source() + "): NOTIFY sent to its 200 received, whole "
                    + "milliseconds of SIPp's clock");
            f.put("notifyTo200SippMs", m);
        }
        if (w != null) {
            latency(f, "srdMs", w.latencies().get(Names.SRD));
            latency(f, "srdPhoneMs", w.latencies().get(Names.SRD_PHONE));
            latency(f, "srdLineMs", w.latencies().get(Names.SRD_LINE));
            double sent = w.delta(Names.INVITES + "phone") + w.delta(Names.INVITES + "line");
            double answered = w.delta(Names.INVITES_ANSWERED + "phone") + w.delta(Names.INVITES_ANSWERED + "line");
            if (sent > 0) {
                Map<String, Object> ser = new LinkedHashMap<>();
                ser.put("percent", round(100 * answered / sent));
                ser.put("invites", (long) sent);
                ser.put("answered", (long) answered);
                for (String leg : new String[] {"phone", "line"}) {
                    double legSent = w.delta(Names.INVITES + leg);
                    if (legSent > 0) {
                        ser.put(leg + "Percent", round(100 * w.delta(Names.INVITES_ANSWERED + leg) / legSent));
                    }
                }
                f.put("ser", ser);
            }
            ServerWindow.Gauge live = w.gauges().get(Names.LIVE_SESSIONS);
            if (live != null) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("mean", live.mean());
                m.put("max", (long) live.max());
                f.put("liveSessions", m);
                if (s.gc() != null && s.gc().liveSetMb() != null && live.mean() > 0) {
                    f.put("heapPerLiveSessionKb", round(s.gc().liveSetMb() * 1024 / live.mean()));
                }
            }
            double operations = w.delta(Names.PHONE_HANGUPS) + w.delta(Names.WEB_HANGUPS);
            if (s.sut() != null && s.sut().cpuSeconds() != null && operations > 0) {
                // the SUT's CPU of the driver's window over the operations of the samples' window: the two windows
                // differ by the milliseconds an answer takes at each end
                f.put("sutCpuPerOperationUs", round(s.sut().cpuSeconds() * 1e6 / (operations * seconds / w.seconds())));
            }
            replication(f, w, operations);
        }
        return f;
    }

    /**
     * A fail-over run ({@code --kill-instance-at}): {@code lostCalls} is what the users saw fail, the SIPp peers'
     * failed calls and the browsers' failed requests (an upper bound: a call whose phone leg failed and whose page
     * hang-up then failed counts twice), and what the partners took over in the window.
     */
    private static void failover(Map<String, Object> f, RunSummary s, ServerWindow w, long sippFailed) {
        long httpErrors = s.errors().getOrDefault("total", 0L);
        f.put("lostCalls", sippFailed + httpErrors);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("killed", s.failover().killed());
        m.put("atSecond", round(s.failover().atSecond()));
        m.put("sippFailedCalls", sippFailed);
        m.put("httpErrors", httpErrors);
        // haproxy closes a browser's kept-alive connection without an answer, rather than answer, when the dead
        // instance's server connection fails under a request it does not retry itself (a read error, not an empty
        // response), for the client to resend it: the driver resends such a GET once on a new connection, as a
        // browser does (resentByBrowsers); what still failed without an answer (its resend too) is closedUnanswered
        m.put("closedUnanswered", s.errors().getOrDefault("io", 0L));
        m.put("resentByBrowsers", s.driver() == null ? 0L : s.driver().resent());
        if (w != null) {
            m.put("callsTakenOver", (long) w.delta(Names.TAKEN_OVER_CALLS));
            m.put("webSessionsTakenOver", (long) w.delta(Names.TAKEN_OVER_SESSIONS));
            long restarted = (long) w.delta(Names.SETUPS_RESTARTED);
            m.put("setupsRestarted", restarted);
            m.put("clicksResent", (long) w.delta(Names.CLICKS_AGAIN));
            long abandoned = (long) w.delta(Names.SETUP_PEER_CALLS_ABANDONED);
            m.put("peerCallsAbandoned", abandoned);
            m.put("lostInSetup", lostInSetup(sippFailed, abandoned));
            Map<String, Object> detected = new LinkedHashMap<>();
            after(detected, "gridMs", w, Names.PARTNER_LOST_AT, s.failover().epochMs());
            after(detected, "firstCallTakenOverMs", w, Names.FIRST_CALL_TAKEN_OVER_AT, s.failover().epochMs());
            after(detected, "firstPageTakenOverMs", w, Names.FIRST_PAGE_TAKEN_OVER_AT, s.failover().epochMs());
            if (!detected.isEmpty()) {
                m.put("afterKill", detected);
            }
            if (s.failover().restart() != null) {
                m.put("afterRestart", afterRestart(w, s.failover().restart()));
            }
        }
        f.put("failover", m);
    }

    /**
     * The SIPp failed calls owed to the set-ups the kill caught: at most the peers' calls the partner counted abandoned
     * when it took each set-up over ({@code peerCallsAbandoned}: one for a set-up caught subscribing or calling the
     * phone, two caught calling the line; the transaction the dead instance had in flight at a peer is answered to it,
     * a response going where its Via points). The click itself is not lost (haproxy resends it, the partner answers it
     * when the call it began again is up), so browser errors are never counted here; SIPp failures above this are
     * losses of another kind, and show as lostCalls above lostInSetup + closedUnanswered.
     */
    static long lostInSetup(long sippFailed, long peerCallsAbandoned) {
        return Math.min(sippFailed, peerCallsAbandoned);
    }

    /**
     * The killed instance back ({@code --restart-instance-at}): the copies it received when it rejoined its partner
     * (state transfer: the partner's users protected again), the calls and web sessions it took back from their
     * copies (its users coming back to it: the proxies' affinity returned), the calls its partner handed back, and
     * when it first took a call and a page back. Only the restarted process takes back and only it joined with
     * copies, so these sums are its own.
     */
    private static Map<String, Object> afterRestart(ServerWindow w, RunSummary.Restart restart) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("process", restart.process());
        m.put("atSecond", round(restart.atSecond()));
        m.put("readyMs", Math.round(restart.readySeconds() * 1000));
        ServerWindow.Gauge held = w.gauges().get(Names.HELD_AT_JOIN);
        if (held != null) {
            m.put("copiesReceivedAtJoin", (long) held.last());
        }
        m.put("callsTakenBack", (long) w.delta(Names.TAKEN_BACK_CALLS));
        m.put("webSessionsTakenBack", (long) w.delta(Names.TAKEN_BACK_SESSIONS));
        m.put("callsHandedBack", (long) w.delta(Names.HANDED_BACK_CALLS));
        after(m, "firstCallTakenBackMs", w, Names.FIRST_CALL_TAKEN_BACK_AT, restart.epochMs());
        after(m, "firstPageTakenBackMs", w, Names.FIRST_PAGE_TAKEN_BACK_AT, restart.epochMs());
        return m;
    }

    /**
     * Milliseconds from the kill to a moment an instance noted ({@link Names#PARTNER_LOST_AT} and the first
     * take-overs), when one did: each instance says when it first did so, 0 before, and only the killed one's partner
     * does, so the sum of the instances' last samples is the partner's.
     */
    private static void after(Map<String, Object> m, String name, ServerWindow w, String gauge, long killedEpochMs) {
        ServerWindow.Gauge g = w.gauges().get(gauge);
        if (g != null && g.last() >= killedEpochMs) {
            m.put(name, (long) (g.last() - killedEpochMs));
        }
    }

    /**
     * What {@code --replication} cost in the window: copies written to the partners, their bytes, and per converged
     * operation (the study's measure of each replication moment), and failed writes. Nothing without replication
     * (its counters are not on the stats page then).
     */
    private static void replication(Map<String, Object> f, ServerWindow w, double operations) {
        if (!w.gauges().containsKey(Names.REPLICATION_MEMBERS)) {
            return;
        }
        double writes = w.delta(Names.REPLICATION_WRITES);
        double bytes = w.delta(Names.REPLICATION_BYTES);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("writes", (long) writes);
        m.put("bytes", (long) bytes);
        m.put("failures", (long) w.delta(Names.REPLICATION_FAILURES));
        if (operations > 0) {
            m.put("writesPerOperation", round(writes / operations));
            m.put("bytesPerOperation", round(bytes / operations));
        }
        f.put("replication", m);
    }

    /**
     * Clicks refused at the door (503, the server full: --max-setups, --max-calls), apart from the failed calls: a
     * refused user's call never started, so it cannot have failed. {@code percent} is of the clicks that reached
     * the door, admitted ({@code clicks}) or refused.
     */
    private static Map<String, Object> refused(ServerWindow w) {
        double refused = w.delta(Names.REFUSED);
        double atTheDoor = refused + w.delta(Names.CLICKS);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", (long) refused);
        m.put("perSecond", round(refused / w.seconds()));
        if (atTheDoor > 0) {
            m.put("percent", round(100 * refused / atTheDoor));
        }
        return m;
    }

    private static void latency(Map<String, Object> f, String name, ServerWindow.Latency l) {
        if (l == null || l.count() == 0) {
            return;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", l.count());
        put(m, "p50", l.p50Ms());
        put(m, "p90", l.p90Ms());
        put(m, "p95", l.p95Ms());
        put(m, "p99", l.p99Ms());
        put(m, "max", l.maxMs());
        m.put("source", SUT_PRECISION);
        f.put(name, m);
    }

    private static void put(Map<String, Object> m, String key, Double v) {
        if (v != null) {
            m.put(key, v);
        }
    }

    private static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}

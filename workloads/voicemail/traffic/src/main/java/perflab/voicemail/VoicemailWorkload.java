package perflab.voicemail;

import perflab.core.config.Quantities;
import perflab.core.result.RunCheck;
import perflab.core.traffic.Traffic;
import perflab.core.workload.OperationInfo;
import perflab.core.workload.ServerSide;
import perflab.loadsource.sipp.SippLoad;
import perflab.core.workload.StackInfo;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The converged SIP + HTTP web voice mail of seed 004: each user opens a page, clicks "check voice mail" (the
 * server subscribes to the user's message-waiting events and connects the phone to the voice-mail line by
 * third-party call control), holds the call, and hangs up from the phone or the page. perflab's HTTP driver plays
 * the browsers; SIPp plays the phone, the voice-mail line and the notifier (docs/workloads/voicemail.md).
 */
public final class VoicemailWorkload implements Workload {
    static final String HOLD = "hold";
    static final String WEB_HANGUP = "web-hangup";
    static final String USERS = "users";
    static final String MAX_SETUPS = "max-setups";
    static final String MAX_CALLS = "max-calls";
    static final String REPLICATION = "replication";
    static final String REPLICATION_OFF = "off";
    /** The SIPp peers, in start order: their names are their {@code {name.port}} in the SUT's settings. */
    static final String PHONE = "phone";
    static final String LINE = "line";
    static final String NOTIFIER = "notifier";
    static final String SCENARIOS = "workloads/voicemail/sipp/";
    /** Besides the hold, how long a peer waits for the SUT's next message: set-up, tear-down, retransmissions. */
    static final Duration PEER_MARGIN = Duration.ofSeconds(30);

    private static final List<WorkloadSetting> SETTINGS = List.of(
            WorkloadSetting.duration(HOLD, "60s", Duration.ZERO, Duration.ofHours(1),
                    "How long each call is held before the phone or the page hangs up. Default: 60s (the study's)."),
            new WorkloadSetting(WEB_HANGUP, "SHARE", "0.5", "The share of users who hang up from the page (an HTTP "
                    + "request); the others' phones hang up (a SIP BYE). Default: 0.5 (the study's half each).",
                    WorkloadSetting.Use.TRAFFIC, true, VoicemailWorkload::share),
            WorkloadSetting.integer(USERS, 100_000, 1, 10_000_000, "Users in the users file, taken in turn: more than "
                    + "are in a call at once (the rate times the hold, plus a minute)."),
            WorkloadSetting.integer(MAX_SETUPS, 500, 0, 1_000_000, "Clicks the server sets up at once; more are "
                    + "refused at the door with 503 and Retry-After, so the calls it admitted stay fast (0: no limit).")
                    .forServer().asDimension(),
            WorkloadSetting.integer(MAX_CALLS, 0, 0, 10_000_000, "Users the server holds in a call at once; more "
                    + "clicks are refused with 503 (0: no limit).").forServer().asDimension(),
            WorkloadSetting.choice(REPLICATION, REPLICATION_OFF, "With --instances N (even): when each user's session "
                    + "is copied to the partner instance (instances 0 and 1 are a pair, 2 and 3...), so that the partner "
                    + "goes on with the user's calls when its instance fails: off, end-of-service (when the page is "
                    + "shown and the call connected), every-message (before every message the instance sends for the "
                    + "user). Default: off.", REPLICATION_OFF, "end-of-service", "every-message").forServer().asDimension());

    private static String share(String value) {
        double share;
        try {
            share = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            share = Double.NaN;
        }
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("--" + WEB_HANGUP + ": '" + value + "' is not a share between 0 and 1");
        }
        return Double.toString(share);
    }

    @Override
    public String name() {
        return "voicemail";
    }

    @Override
    public String description() {
        return "a converged SIP + HTTP web voice mail (seed 004): a page, a click that subscribes and sets up a "
                + "third-party call, a hold, a hang-up; SIPp plays the phones, the voice-mail line and the notifier";
    }

    @Override
    public List<StackInfo> stacks() {
        return List.of(new StackInfo("lean", "perflab's own: Jetty 12 for HTTP and perflab's SIP stack on UDP in one JVM",
                "workloads/voicemail/stack-lean", "perflab.voicemail.lean.VoicemailServer"));
    }

    @Override
    public List<OperationInfo> operations() {
        return List.of(new OperationInfo("converged", "users arriving at --rate: page, click, hold, hang-up"));
    }

    @Override
    public String servicePath() {
        return VoicemailPages.BASE;
    }

    @Override
    public List<WorkloadSetting> settings() {
        return SETTINGS;
    }

    static UsersFile usersFile(Map<String, String> settings, long seed) {
        return new UsersFile(Integer.parseInt(settings.get(USERS)), Double.parseDouble(settings.get(WEB_HANGUP)),
                Quantities.duration("--" + HOLD, settings.get(HOLD)).toMillis(), seed);
    }

    @Override
    public Traffic traffic(TrafficOptions options) {
        operation(options.operation());
        return new VoicemailTraffic(usersFile(options.settings(), options.seed()), options.seed(), options.part());
    }

    /** The server's account of the calls, once the sessions drained ({@link CallsCheck}). */
    @Override
    public List<RunCheck> checksAfterDrive(URI target) {
        return List.of(CallsCheck.ask(target));
    }

    /** Several instances: each one's account of its users' calls, added up. */
    @Override
    public List<RunCheck> checksAfterDrive(URI target, List<URI> instances) {
        return List.of(CallsCheck.askAll(instances));
    }

    /** The stats page, sampled each second: the converged calls' counters and latency histograms. */
    @Override
    public perflab.core.workload.ServerCounters serverCounters() {
        return VoicemailFigures.COUNTERS;
    }

    /** Issue 11's metrics of the window ({@link VoicemailFigures}). */
    @Override
    public Map<String, Object> figures(perflab.core.result.RunSummary summary) {
        return VoicemailFigures.of(summary);
    }

    /** A capacity search counts users per second, judged by NOTIFY-to-200 and failed calls ({@link VoicemailFigures#CAPACITY}). */
    @Override
    public perflab.core.workload.CapacityMeasure capacity() {
        return VoicemailFigures.CAPACITY;
    }

    /** The SUT is told where the SIPp peers listen; they start before it. */
    @Override
    public ServerSide serverSide(Map<String, String> settings) {
        return ServerSide.sutOnly(peers(settings));
    }

    private static Map<String, String> peers(Map<String, String> settings) {
        Map<String, String> sut = new LinkedHashMap<>(settings);
        for (String peer : List.of(PHONE, LINE, NOTIFIER)) {
            sut.put(peer, "127.0.0.1:{" + peer + ".port}");
        }
        return sut;
    }

    /**
     * Seed 004's cluster on one machine: the instances behind a converged proxy, haproxy for HTTP and Kamailio for
     * SIP, both sending a user to its home instance (user number mod N, as {@link ClusterRoutes} lays it out).
     * Each instance sends its requests out through Kamailio, which record-routes them, so that the peers' BYE and
     * NOTIFY come back through it too.
     */
    @Override
    public ServerSide serverSide(Map<String, String> settings, int instances) {
        boolean replicated = !REPLICATION_OFF.equals(settings.getOrDefault(REPLICATION, REPLICATION_OFF));
        if (replicated && (instances < 2 || instances % 2 != 0)) {
            throw new IllegalArgumentException("--replication " + settings.get(REPLICATION) + " copies each instance's "
                    + "users to its partner: it needs --instances 2, 4, 6... (pairs), got " + instances);
        }
        if (instances == 1) {
            return serverSide(settings);
        }
        Map<String, String> sut = peers(settings);
        sut.put("outbound-proxy", "127.0.0.1:{" + ClusterRoutes.SIP_PROXY + ".port}");
        if (!replicated) {
            return new ServerSide(ClusterRoutes.proxies(instances), sut, List.of(), ClusterRoutes.HTTP_PROXY);
        }
        return new ServerSide(ClusterRoutes.proxies(instances), sut, ReplicationPairs.settings(instances),
                ClusterRoutes.HTTP_PROXY, List.of(ReplicationPairs.PORT));
    }

    /**
     * The three peers the SUT calls; the phone reads the users file to know how and when each user hangs up. Each
     * waits for the SUT's next message at most the hold plus {@link #PEER_MARGIN} ({@code -recv_timeout}: the
     * BYE and the unsubscription come a hold after the call starts), and counts its messages by kind
     * ({@code -trace_counts}: the per-user message count).
     */
    @Override
    public List<perflab.core.load.LoadSource> loadSources(Map<String, String> settings) {
        Duration wait = Quantities.duration("--" + HOLD, settings.get(HOLD)).plus(PEER_MARGIN);
        List<String> phone = List.of("-inf", UsersFile.NAME, "-infindex", UsersFile.NAME, "0", "-trace_counts");
        List<String> others = List.of("-trace_counts");
        return List.of(
                SippLoad.answers(PHONE, SCENARIOS + "phone.xml", phone).withRecvTimeout(wait),
                SippLoad.answers(LINE, SCENARIOS + "line.xml", others).withRecvTimeout(wait),
                SippLoad.answers(NOTIFIER, SCENARIOS + "notifier.xml", others).withRecvTimeout(wait));
    }

    /** The users file, in the run directory where SIPp runs, before any process starts. */
    @Override
    public void writeRunFiles(Path runDir, Map<String, String> trafficSettings, long seed) throws IOException {
        usersFile(trafficSettings, seed).write(runDir.resolve(UsersFile.NAME));
    }
}

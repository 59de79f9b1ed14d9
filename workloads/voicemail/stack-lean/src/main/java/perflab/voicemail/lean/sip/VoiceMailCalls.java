package perflab.voicemail.lean.sip;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import perflab.voicemail.lean.ConvergedCalls;
import perflab.voicemail.lean.replica.FirstMoment;
import perflab.voicemail.lean.replica.ReplicationMode;
import perflab.voicemail.lean.replica.SessionReplicas;
import perflab.voicemail.lean.replica.UserReplica;
import perflab.voicemail.sip.LatencyBuckets;
import perflab.voicemail.sip.SerialExecutor;
import perflab.voicemail.sip.ServerTransaction;
import perflab.voicemail.sip.SipStack;
import perflab.voicemail.sip.SipStackConfig;
import perflab.voicemail.sip.netty.NettySipStack;

/**
 * {@link ConvergedCalls} over a {@link SipStack}: a {@link UserCall} per user with SIP sessions alive, each on its
 * own {@link SerialExecutor} over one worker pool (a user's work in order, users in parallel). The stack is named
 * only where it is opened, so that another can be measured behind the same flow.
 */
public final class VoiceMailCalls implements ConvergedCalls {
    private final VoiceMailSipConfig config;
    private final ExecutorService workers;
    private final ScheduledExecutorService timers;
    private final SipStack stack;
    private final SessionReplicas replicas;
    private final String identity;
    private final Map<String, UserCall> users = new ConcurrentHashMap<>();
    /**
     * The web side's half of a call taken over; null until the web side says ({@link #onTakeover}). Until then no
     * call is taken from its copy: the stack is open (and answers the proxies' OPTIONS) before the web side is built,
     * and a call adopted then would end without its converged operation being counted (a restarted instance took two
     * such calls back in a fresh-clone CI: "2 sessions LEAKED"). A request for one is answered 503, and the proxy
     * sends it to the partner, which still holds the call.
     */
    private volatile BiFunction<String, String, Consumer<CallEnd>> webHalf;
    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
    private final FirstMoment firstTakeOver = new FirstMoment();
    private final FirstMoment firstTakeBack = new FirstMoment();
    /** The notifier's NOTIFY read by the stack to our 200 handed to it. */
    final LatencyBuckets notifyTo200 = new LatencyBuckets();
    /** RFC 6076 session request delay of each leg: our INVITE handed to the stack to its 200 read by the stack. */
    final LatencyBuckets srdPhone = new LatencyBuckets();
    final LatencyBuckets srdLine = new LatencyBuckets();
    /** Both legs' together. */
    final LatencyBuckets srd = new LatencyBuckets();

    /** The SIP side without replication. */
    public VoiceMailCalls(VoiceMailSipConfig config) {
        this(config, SessionReplicas.off());
    }

    /** The SIP side, its users' sessions copied through {@code replicas} at the moments its mode names. */
    public VoiceMailCalls(VoiceMailSipConfig config, SessionReplicas replicas) {
        this.config = config;
        this.replicas = replicas;
        this.workers = Executors.newFixedThreadPool(config.workers(), daemon("voicemail-sip-worker"));
        ScheduledThreadPoolExecutor timerPool = new ScheduledThreadPoolExecutor(1, daemon("voicemail-sip-timer"));
        // a call that ends cancels its timeouts: dropped from the queue at once, they no longer keep the ended
        // call (its dialogs, messages and the web session behind its callback) alive for 64 x T1
        timerPool.setRemoveOnCancelPolicy(true);
        this.timers = timerPool;
        // the SUT only receives requests in its users' dialogs; anything else the stack answers (481, 405)
        this.stack = NettySipStack.open(new SipStackConfig(config.host(), config.port(), config.timers(), 16 * 1024,
                Set.of("ACK", "BYE", "NOTIFY", "OPTIONS"), workers, VoiceMailCalls::outsideAnyCall,
                "perflab-voicemail"));
        this.identity = "sip:voicemail@" + config.host() + ":" + stack.localAddress().getPort();
        if (replicas.mode() != ReplicationMode.OFF) {
            // the copies written while the dead partner was still in the view may be lost: every live call's again
            replicas.onPartnerLost(() -> users.values().forEach(call -> call.executor.execute(call::rewrite)));
            // a peer's request in a dialog of the failed partner's: the call's copy is here
            stack.strays(new perflab.voicemail.sip.StrayDialogs() {
                @Override
                public boolean adopt(String user) {
                    return takeOver(user, true);
                }

                @Override
                public boolean servedElsewhere(String user) {
                    return webHalf == null || leftToPartner(user);
                }
            });
        }
    }

    /**
     * A request in no user's dialog: OPTIONS is a proxy asking whether this instance is alive (Kamailio's dispatcher
     * probes each instance so), answered 200; anything else names a dialog this instance does not have.
     */
    private static void outsideAnyCall(ServerTransaction tx) {
        if ("OPTIONS".equals(tx.request().method())) {
            tx.respond(200, "OK");
        } else {
            tx.respond(481, "Call/Transaction Does Not Exist");
        }
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name + "-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public int sipPort() {
        return stack.localAddress().getPort();
    }

    @Override
    public CompletableFuture<Void> connect(String user, String webSession, Consumer<CallEnd> ended) {
        UserCall call = new UserCall(this, user, webSession, new SerialExecutor(workers), ended);
        if (users.putIfAbsent(user, call) != null) {
            count("calls.failures.busy");
            return CompletableFuture.failedFuture(new CallFailure("busy", user + " is already in a call"));
        }
        call.executor.execute(call::start);
        return call.connected.copy();
    }

    @Override
    public CompletableFuture<Void> setUp(String user) {
        UserCall call = users.get(user);
        return call == null ? null : call.connected.copy();
    }

    @Override
    public CompletableFuture<Void> hangUp(String user) {
        UserCall call = users.get(user);
        if (call == null) {
            return CompletableFuture.failedFuture(new CallFailure("no-call", user + " has no call up"));
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        call.executor.execute(() -> call.hangUp(done));
        return done;
    }

    @Override
    public void onTakeover(BiFunction<String, String, Consumer<CallEnd>> newWebHalf) {
        this.webHalf = newWebHalf;
    }

    /**
     * Synchronized: the SIP side (the stack's I/O thread) and the web side (a hang-up) may ask for the same user at
     * once, and a call's dialogs are adopted once. Rare (a partner's failure) and short (a read of local memory).
     */
    @Override
    public boolean takeOver(String user) {
        return takeOver(user, false);
    }

    /**
     * On the stack's I/O thread the dialogs are adopted at once, so the request that asked finds them, and the call
     * is listed after; elsewhere the call is listed first and adopts its dialogs as its first task, ahead of anything
     * the web side or the stack hands it.
     */
    private synchronized boolean takeOver(String user, boolean onIoThread) {
        if (users.containsKey(user)) {
            return true;
        }
        BiFunction<String, String, Consumer<CallEnd>> webHalf = this.webHalf;
        if (webHalf == null) {
            return false; // no web side yet to carry the call's end
        }
        UserReplica copy = replicas.read(user);
        if (copy == null || copy.state().equals(UserReplica.PAGE) || leftToPartner(copy)) {
            return false;
        }
        // from now on this member may serve calls the other one takes back
        replicas.onPartnerWrites(users::containsKey, this::partnerWrote);
        UserReplica here = copy.movedOn();
        UserCall call = new UserCall(this, user, here.webSession(), new SerialExecutor(workers),
                webHalf.apply(user, here.webSession()));
        Runnable adopt = () -> {
            call.adopt(here);
            call.write(); // at once, one generation on: a member still serving the call lets it go
        };
        if (onIoThread) {
            adopt.run();
            users.put(user, call);
        } else {
            users.put(user, call);
            call.executor.execute(adopt);
        }
        // a member that came back to its partner takes its own users' calls back; any other takes a failed one's over
        boolean back = replicas.rejoined();
        count(back ? "calls.taken-back" : "calls.taken-over");
        (back ? firstTakeBack : firstTakeOver).mark();
        return true;
    }

    /**
     * Whether a request in a dialog of {@code user}'s that this member could not take is left to the partner: this
     * member came back to its partner, which served its users meanwhile and may still serve this dialog, and the user
     * has no call here. Answered 503, the proxy sends it on to the partner, which serves it or answers 481 itself.
     * Three cases: the copy shows the call being set up or torn down (see {@link #leftToPartner(UserReplica)}); the
     * copy is older than the call (the partner's write is still on its way: a NOTIFY right after the partner's
     * SUBSCRIBE outruns it); no copy at all.
     */
    private boolean leftToPartner(String user) {
        return replicas.rejoined() && !users.containsKey(user);
    }

    /**
     * Whether a call is not taken back from its copy: this member came back to its partner, and the partner, alive,
     * is setting the call up or tearing it down (its copy says so). Taken back then, the call would be torn down as a
     * failure (a transaction in flight cannot be adopted) while the partner carries it through; left there, it ends
     * there. A connected call is taken back: nothing is in flight.
     */
    private boolean leftToPartner(UserReplica copy) {
        return replicas.rejoined() && !copy.state().equals(UserReplica.PAGE) && !copy.state().equals(UserCall.CONNECTED);
    }

    /**
     * The other member wrote {@code copy}: if this member serves that call and the copy is of a later generation, the
     * other one took the call (back) from its copy, and this one lets it go ({@link UserCall#handBack}).
     */
    private void partnerWrote(UserReplica copy) {
        UserCall call = users.get(copy.user());
        if (call != null) {
            call.executor.execute(() -> {
                if (copy.generation() > call.generation) {
                    call.handBack();
                }
            });
        }
    }

    @Override
    public void webSessionMoved(String user, String webSession) {
        // a page taken over may click here: a call the partner takes back later must be let go here
        replicas.onPartnerWrites(users::containsKey, this::partnerWrote);
        UserCall call = users.get(user);
        if (call != null) {
            call.executor.execute(() -> call.webSessionMoved(webSession));
        }
    }

    @Override
    public int liveUsers() {
        return users.size();
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> all = new TreeMap<>(stack.counters());
        counters.forEach((name, value) -> all.put(name, value.sum()));
        all.put("calls.live-users", (long) users.size());
        all.put("calls.first-taken-over-epoch-ms", firstTakeOver.epochMs());
        all.put("calls.first-taken-back-epoch-ms", firstTakeBack.epochMs());
        all.putAll(replicas.counters());
        return all;
    }

    @Override
    public Map<String, Map<Long, Long>> latencies() {
        Map<String, Map<Long, Long>> all = new TreeMap<>();
        all.put("notify-to-200", notifyTo200.buckets());
        all.put("srd-phone", srdPhone.buckets());
        all.put("srd-line", srdLine.buckets());
        all.put("srd", srd.buckets());
        return all;
    }

    @Override
    public void close() {
        stack.close();
        timers.shutdownNow();
        workers.shutdownNow();
    }

    VoiceMailSipConfig config() {
        return config;
    }

    SipStack stack() {
        return stack;
    }

    /**
     * The Contact of {@code user}'s requests: the user's id at this instance's SIP address, so that every request
     * the peers send in the user's dialogs (BYE, NOTIFY) carries the user in its Request-URI, where a proxy in front
     * of several instances finds the user's home (the 3PCC spans three Call-IDs; the user is what they share).
     */
    String contact(String user) {
        return "<sip:" + user + "@" + config.host() + ":" + stack.localAddress().getPort() + ">";
    }

    String identity() {
        return identity;
    }

    void count(String name) {
        counters.computeIfAbsent(name, n -> new LongAdder()).increment();
    }

    /**
     * Runs {@code task} on the user's executor after {@code millis}: the application's own timeouts. The call
     * cancels what is still pending when it ends.
     */
    ScheduledFuture<?> later(UserCall call, long millis, Runnable task) {
        return timers.schedule(() -> call.executor.execute(task), millis, TimeUnit.MILLISECONDS);
    }

    void remove(String user, UserCall call) {
        users.remove(user, call);
    }

    SessionReplicas replicas() {
        return replicas;
    }
}

package perflab.voicemail.lean;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The SIP side of the application as its web pages use it: one user's subscription and third-party call. The web
 * side (package {@code web}) knows nothing of SIP; the SIP side (package {@code sip}) nothing of HTTP. Work for one
 * user is serialised by the SIP side; different users run in parallel. Every method may be called from any thread.
 */
public interface ConvergedCalls extends AutoCloseable {
    /** The UDP port SIP is served on (the READY line's {@code sip=PORT}). */
    int sipPort();

    /**
     * The click. Subscribes to the user's message-waiting events at the notifier (SUBSCRIBE, its 200, the NOTIFY
     * answered with 200: RFC 6665, the NOTIFY may come first), then connects the user's phone to the voice-mail line
     * (RFC 3725 flow I: INVITE without offer to the phone, its 200's offer in an INVITE to the line, the line's
     * answer in the ACK to the phone). Completes when both legs are up, or exceptionally with a {@link CallFailure};
     * on failure whatever was set up is torn down first.
     *
     * @param ended told once when the user's calls are over and unsubscribed, whoever ended them (the phone's BYE
     *              or {@link #hangUp}); not told when the returned future fails
     */
    default CompletableFuture<Void> connect(String user, Consumer<CallEnd> ended) {
        return connect(user, null, ended);
    }

    /**
     * The click from the web session {@code webSession} (the id the user's browser holds, kept with the user's
     * replica so that the partner instance knows the browser after a fail-over; null: none).
     */
    CompletableFuture<Void> connect(String user, String webSession, Consumer<CallEnd> ended);

    /**
     * The user's call here as its click sees it: completes when the call is up (at once for a call up already), fails
     * as {@link #connect}'s future would. A click the browser sends again while its call is being set up (haproxy
     * resends it to the partner when the instance that had it dies; the partner set the call up again from its copy)
     * waits on this rather than starting a second call. Null when the user has no call here.
     */
    default CompletableFuture<Void> setUp(String user) {
        return null;
    }

    /**
     * The web hang-up: BYE to the phone, then to the voice-mail line, then the unsubscription (SUBSCRIBE with
     * Expires: 0 and its final NOTIFY), one after the other. Completes when the legs are down; fails with a
     * {@link CallFailure} ({@code no-call}) when the user has no call up.
     */
    CompletableFuture<Void> hangUp(String user);

    /**
     * Takes over {@code user}'s call from the copy this instance holds for its failed partner ({@code --replication}):
     * the call's dialogs are served here from now on, its hang-ups work here. Called when the first request for the
     * user reaches this instance: a peer's BYE or NOTIFY in one of the call's dialogs, or the browser's hang-up.
     * True when the user's call is here now (taken over now or before); false when there is no copy of a call.
     */
    default boolean takeOver(String user) {
        return false;
    }

    /**
     * Who is told of each call taken over ({@link #takeOver}): given the user and the web session id its copy names,
     * the web side adopts the web half of the session and returns what to tell when the call ends.
     */
    default void onTakeover(java.util.function.BiFunction<String, String, Consumer<CallEnd>> webHalf) {
    }

    /**
     * The browser of {@code user}, whose web session was taken over here, now holds web session {@code webSession} of
     * this instance: the call's copy names it from now on (nothing to write when the user has no call here). This
     * instance serves its failed partner's users from now on, so a call the partner takes back when it returns is let
     * go here.
     */
    default void webSessionMoved(String user, String webSession) {
    }

    /** Users with SIP sessions alive now. */
    int liveUsers();

    /** The SIP side's counters by name (messages in and out, retransmissions, drops by reason): the stats page. */
    Map<String, Long> counters();

    /**
     * The SIP side's latency histograms by name ({@code notify-to-200}, {@code srd-phone}, {@code srd-line}): each
     * bucket's inclusive upper bound in µs and its count since the start ({@link perflab.voicemail.sip.LatencyBuckets}).
     */
    default Map<String, Map<Long, Long>> latencies() {
        return Map.of();
    }

    /** How a user's calls ended. */
    enum CallEnd {
        /** The phone sent BYE. */
        PHONE_HANGUP,
        /** {@link #hangUp}. */
        WEB_HANGUP,
        /** A leg or the subscription failed mid-call (a timeout, an error answer); torn down. */
        FAILED,
        /**
         * Not an end: the call went back to the user's home instance, which took it from its copy after it came back,
         * and goes on there. Not a converged operation here.
         */
        HANDED_BACK
    }

    /** Why a user's call could not be set up or ended: {@link #reason()} is a short kebab-case word for counters. */
    final class CallFailure extends RuntimeException {
        private final String reason;

        public CallFailure(String reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }
}

package perflab.voicemail.lean.sip;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;
import perflab.voicemail.lean.ConvergedCalls.CallEnd;
import perflab.voicemail.lean.ConvergedCalls.CallFailure;
import perflab.voicemail.lean.replica.ReplicationMode.Moment;
import perflab.voicemail.lean.replica.SessionReplicas;
import perflab.voicemail.lean.replica.UserReplica;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.ClientTransaction;
import perflab.voicemail.sip.Dialog;
import perflab.voicemail.sip.DialogState;
import perflab.voicemail.sip.Header;
import perflab.voicemail.sip.NewRequest;
import perflab.voicemail.sip.RequestHandler;
import perflab.voicemail.sip.ServerTransaction;
import perflab.voicemail.sip.SipMessage;
import perflab.voicemail.sip.SipResponse;

/**
 * One user's application session on the SIP side: the subscription at the notifier, the phone leg and the
 * voice-mail-line leg, and where the flow of docs/workloads/voicemail.md stands. Every method runs on the user's
 * serial executor (the stack calls back there too), so the fields need no lock. With {@code --replication} it
 * offers a copy of itself to the partner instance before each message it sends and when the call is connected
 * ({@link SessionReplicas}); the copy goes when the call is over.
 */
final class UserCall implements RequestHandler {
    private enum State { SUBSCRIBING, CALLING_PHONE, CALLING_LINE, CONNECTED, ENDING, DONE }

    /** A copy's state of a call connected and on hold: nothing in flight. */
    static final String CONNECTED = State.CONNECTED.name();

    private final VoiceMailCalls owner;
    private final String user;
    /** The browser's web session, kept in the user's replica; null: none. */
    private String webSession;
    /** How many times the call moved between the pair's members before it came here ({@link UserReplica#generation}). */
    int generation;
    final Executor executor;
    private final Consumer<CallEnd> ended;
    final CompletableFuture<Void> connected = new CompletableFuture<>();
    private State state = State.SUBSCRIBING;
    private Dialog subscription;
    private Dialog phone;
    private Dialog line;
    private boolean subscribeAccepted;
    private boolean notified;
    private boolean finalNotify;
    private Runnable afterFinalNotify;
    private CallEnd endedBy;
    /**
     * Taken over in set-up and set up again here: the web half was adopted with the call, so a failed set-up is told
     * to it as the call's end (the web side counts no click of its own for it).
     */
    private boolean restartsSetup;
    /** The subscription of a set-up taken over and begun again, being ended beside the new one; null: none. */
    private Dialog retired;
    /** The application's timeouts still pending: cancelled when the call ends. */
    private final List<ScheduledFuture<?>> timeouts = new ArrayList<>(2);

    UserCall(VoiceMailCalls owner, String user, String webSession, Executor executor, Consumer<CallEnd> ended) {
        this.owner = owner;
        this.user = user;
        this.webSession = webSession;
        this.executor = executor;
        this.ended = ended;
    }

    /** Steps 1-4: SUBSCRIBE; its 200 and the first NOTIFY may come in either order. */
    void start() {
        replicate(Moment.MESSAGE);
        InetSocketAddress notifier = owner.config().notifier();
        ClientTransaction subscribe = owner.stack().send(new NewRequest("SUBSCRIBE", uri(user, notifier),
                owner.identity(), uri(user, notifier), owner.config().nextHop(notifier), Header.of("Event", "message-summary",
                "Expires", "3600", "Accept", "application/simple-message-summary", "Contact", owner.contact(user)),
                Body.NONE), executor, this);
        subscribe.finalResponse().whenComplete((response, error) -> {
            if (error != null) {
                fail("subscribe-timeout");
            } else if (!response.isSuccess()) {
                fail("subscribe-rejected");
            } else if (state == State.SUBSCRIBING) {
                subscription = subscribe.dialog();
                subscribeAccepted = true;
                callPhoneWhenSubscribed();
            }
        });
        timeouts.add(owner.later(this, owner.config().timers().transactionTimeoutMillis(), () -> {
            if (state == State.SUBSCRIBING) {
                fail(subscribeAccepted ? "notify-timeout" : "subscribe-timeout");
            }
        }));
    }

    private static String uri(String user, InetSocketAddress peer) {
        return "sip:" + user + "@" + peer.getHostString() + ":" + peer.getPort();
    }

    /** Steps 5-8 once the SUBSCRIBE's 200 came after the first NOTIFY. */
    private void callPhoneWhenSubscribed() {
        if (state != State.SUBSCRIBING || !subscribeAccepted || !notified) {
            return;
        }
        state = State.CALLING_PHONE;
        replicate(Moment.MESSAGE);
        invitePhone();
    }

    /** Steps 5-8: INVITE without an offer to the phone; the copy that names {@link State#CALLING_PHONE} is written. */
    private void invitePhone() {
        InetSocketAddress phoneAddress = owner.config().phone();
        owner.count("calls.invites.phone");
        long sent = System.nanoTime();
        ClientTransaction invite = owner.stack().send(new NewRequest("INVITE", uri(user, phoneAddress),
                owner.identity(), uri(user, phoneAddress), owner.config().nextHop(phoneAddress),
                Header.of("Contact", owner.contact(user)), Body.NONE), executor, this);
        invite.finalResponse().whenComplete((response, error) -> {
            if (error != null) {
                fail("phone-timeout");
                return;
            }
            if (!response.isSuccess()) {
                fail("phone-rejected");
                return;
            }
            owner.count("calls.invites-answered.phone");
            long srd = received(response) - sent;
            owner.srdPhone.recordNanos(srd);
            owner.srd.recordNanos(srd);
            phone = invite.dialog();
            if (state != State.CALLING_PHONE) {
                return; // a failure came first; the teardown will BYE this leg
            }
            if (response.body().length == 0) {
                fail("phone-no-offer");
                return;
            }
            callLine(response);
        });
    }

    /** Steps 9-13: the phone's offer to the line; the line's answer in the ACK to the phone (RFC 3725 flow I). */
    private void callLine(SipResponse phoneAnswer) {
        state = State.CALLING_LINE;
        replicate(Moment.MESSAGE);
        InetSocketAddress lineAddress = owner.config().line();
        owner.count("calls.invites.line");
        long sent = System.nanoTime();
        ClientTransaction invite = owner.stack().send(new NewRequest("INVITE", uri("voicemail", lineAddress),
                owner.identity(), uri("voicemail", lineAddress), owner.config().nextHop(lineAddress),
                Header.of("Contact", owner.contact(user)),
                new Body(phoneAnswer.contentType(), phoneAnswer.body())), executor, this);
        invite.finalResponse().whenComplete((response, error) -> {
            if (error != null) {
                fail("line-timeout");
                return;
            }
            if (!response.isSuccess()) {
                fail("line-rejected");
                return;
            }
            owner.count("calls.invites-answered.line");
            long srd = received(response) - sent;
            owner.srdLine.recordNanos(srd);
            owner.srd.recordNanos(srd);
            line = invite.dialog();
            if (state != State.CALLING_LINE) {
                return;
            }
            line.ack(Body.NONE);
            phone.ack(response.body().length == 0 ? Body.NONE : new Body(response.contentType(), response.body()));
            state = State.CONNECTED;
            // the click's service is done: the copy both modes keep, with both ACKs in it
            replicate(Moment.SERVICE_END);
            owner.count("calls.connected");
            connected.complete(null);
        });
    }

    /**
     * Takes the call over from its copy ({@link VoiceMailCalls#takeOver}): where the copy says it stood, its dialogs
     * adopted into this instance's stack. A connected call goes on here, its hang-ups working as before. A call the
     * failed instance was still setting up is set up again from here: what the copy shows set up is torn down (the
     * subscription ended, a leg that answered gets its ACK and BYE) and the set-up starts over, completing
     * {@link #connected}, which the click the browser sends again (haproxy's retry) waits on. Its transactions in
     * flight at the kill cannot be finished here: their answers go where their Via points, the dead instance. A call
     * the failed instance was tearing down is torn down from here and counted as failed.
     */
    void adopt(UserReplica copy) {
        generation = copy.generation();
        state = State.valueOf(copy.state());
        subscribeAccepted = (copy.flags() & 1) != 0;
        notified = (copy.flags() & 2) != 0;
        finalNotify = (copy.flags() & 4) != 0;
        subscription = adopted(copy.dialogs().get(0));
        phone = adopted(copy.dialogs().get(1));
        line = adopted(copy.dialogs().get(2));
        if (state == State.CONNECTED) {
            connected.complete(null);
            return;
        }
        boolean inSetup = state != State.ENDING;
        restartsSetup = inSetup;
        int abandoned = peerCallsAbandoned(state);
        executor.execute(() -> {
            owner.count(inSetup ? "calls.setups-restarted" : "calls.failures.taken-over-ending");
            for (int i = 0; i < abandoned; i++) {
                owner.count("calls.setups-restarted.peer-calls-abandoned");
            }
            state = State.ENDING;
            endedBy = CallEnd.FAILED;
            if (!inSetup) {
                teardown(() -> finish(null));
                return;
            }
            bye(phone, () -> bye(line, () -> {
                // handed back while its legs were being ended: the other member has the user now
                if (state == State.DONE) {
                    return;
                }
                retire(subscription);
                setUpAgain();
            }));
        });
    }

    /**
     * The peers' calls that a set-up taken over in {@code at} leaves behind, whose failure the peer counts: the
     * transaction the dead instance had in flight there is answered to it (a response goes where its Via points) and
     * never finished. SUBSCRIBING: the notifier's subscription; CALLING_PHONE: the phone's INVITE; CALLING_LINE: the
     * line's INVITE, and the phone's leg ended early (its scenario may count the BYE it did not expect as a failure).
     * The run's figures bound the peers' failed calls owed to set-ups by the sum of these, counted here.
     */
    private static int peerCallsAbandoned(State at) {
        return switch (at) {
            case SUBSCRIBING, CALLING_PHONE -> 1;
            case CALLING_LINE -> 2;
            default -> 0;
        };
    }

    /**
     * Ends the subscription a set-up taken over had made, beside the new one: its unsubscription goes now and the set-up
     * does not wait for its final NOTIFY (which the proxy brings here only once it gave up on the dead instance).
     */
    private void retire(Dialog old) {
        if (old == null || old.terminated() || finalNotify) {
            return;
        }
        retired = old;
        old.send("SUBSCRIBE", Header.of("Event", "message-summary", "Expires", "0",
                "Accept", "application/simple-message-summary"), Body.NONE)
                .finalResponse().whenComplete((response, error) -> {
                    if (error != null || !response.isSuccess()) {
                        endRetired(old);
                    }
                });
        timeouts.add(owner.later(this, owner.config().timers().transactionTimeoutMillis(), () -> endRetired(old)));
    }

    private void endRetired(Dialog old) {
        if (!old.terminated()) {
            old.terminate();
        }
        if (retired == old) {
            retired = null;
        }
    }

    /** A set-up taken over half done, its remains torn down: from the start, as a click here would. */
    private void setUpAgain() {
        if (state == State.DONE) {
            return;
        }
        subscription = null;
        phone = null;
        line = null;
        subscribeAccepted = false;
        notified = false;
        finalNotify = false;
        afterFinalNotify = null;
        endedBy = null;
        state = State.SUBSCRIBING;
        start();
    }

    /**
     * The browser moved to another web session here (its session lived on the failed partner): the copy names the new
     * one at once, so that the member the user goes back to can follow the browser's cookie.
     */
    void webSessionMoved(String newWebSession) {
        webSession = newWebSession;
        if (state != State.DONE) {
            write();
        }
    }

    /**
     * The other member took the call back (its copy came with a higher generation than this call's): it is served
     * there from now on. Let go quietly: no message sent, the dialogs forgotten here (a late request in them gets 481),
     * the copy left to the other member, the web half told {@link CallEnd#HANDED_BACK}.
     */
    void handBack() {
        if (state == State.DONE) {
            return;
        }
        state = State.DONE;
        timeouts.forEach(t -> t.cancel(false));
        timeouts.clear();
        for (Dialog d : new Dialog[] {subscription, phone, line}) {
            if (d != null && !d.terminated()) {
                d.terminate();
            }
        }
        owner.remove(user, this);
        if (connected.isDone()) {
            owner.count("calls.handed-back");
            ended.accept(CallEnd.HANDED_BACK);
        } else {
            // still being set up here (the click's answer not given): the click fails, and that is how the call
            // ends here, once (the web side counts it by reason); the home goes on with it
            connected.completeExceptionally(new CallFailure("handed-back", user + "'s call went back to its home "
                    + "instance while being set up"));
            if (restartsSetup) {
                // a set-up taken over came with its web half and no click of its own here: that half ends here too
                owner.count("calls.handed-back");
                ended.accept(CallEnd.HANDED_BACK);
            }
        }
    }

    private Dialog adopted(DialogState copy) {
        return copy == null ? null : owner.stack().adopt(copy, executor, this);
    }

    /** Requests in the user's dialogs: the notifier's NOTIFYs, a BYE from the phone (or the line). */
    @Override
    public void onRequest(ServerTransaction tx) {
        String method = tx.request().method();
        if (method.equals("NOTIFY")) {
            onNotify(tx);
        } else if (method.equals("BYE")) {
            tx.respond(200, "OK");
            onBye(tx.dialog());
        } else {
            tx.respond(405, "Method Not Allowed", Header.of("Allow", "ACK, BYE, NOTIFY"), Body.NONE);
        }
    }

    /** When the stack read a message: now when it does not say. */
    private static long received(SipMessage message) {
        long at = message.receivedNanos();
        return at != 0 ? at : System.nanoTime();
    }

    private void onNotify(ServerTransaction tx) {
        if (retired != null && tx.dialog() == retired) {
            tx.respond(200, "OK");
            String subscriptionState = tx.request().header("Subscription-State");
            if (subscriptionState != null && subscriptionState.regionMatches(true, 0, "terminated", 0, 10)) {
                endRetired(retired);
            }
            return;
        }
        boolean first = subscription == null || !notified;
        if (subscription == null) {
            subscription = tx.dialog(); // it came before the SUBSCRIBE's 200
        }
        String subscriptionState = tx.request().header("Subscription-State");
        boolean terminated = subscriptionState != null && subscriptionState.regionMatches(true, 0, "terminated", 0, 10);
        // The first NOTIFY after the SUBSCRIBE's 200 sends two messages, its 200 and the phone's INVITE: one copy,
        // written before both, names the subscription dialog and the call moving on (every-message writes a copy
        // before each message leaves; a copy per message of one event would say the same thing twice).
        boolean callsPhone = !terminated && state == State.SUBSCRIBING && subscribeAccepted;
        if (callsPhone) {
            notified = true;
            state = State.CALLING_PHONE;
        }
        if (first || callsPhone) {
            replicate(Moment.MESSAGE); // the subscription dialog, before the 200 that confirms it
        }
        tx.respond(200, "OK");
        owner.notifyTo200.recordNanos(System.nanoTime() - received(tx.request()));
        if (callsPhone) {
            invitePhone();
            return;
        }
        if (terminated) {
            finalNotify = true;
            tx.dialog().terminate();
            if (state == State.SUBSCRIBING) {
                fail("subscribe-rejected");
            } else if (afterFinalNotify != null) {
                Runnable next = afterFinalNotify;
                afterFinalNotify = null;
                next.run();
            }
            return;
        }
        notified = true; // the phone is called when the SUBSCRIBE's 200 comes
    }

    private void onBye(Dialog from) {
        boolean fromPhone = from == phone;
        if (fromPhone) {
            phone = null;
        } else if (from == line) {
            line = null;
        }
        if (state == State.CONNECTED) {
            // steps 14-21 for phone users: BYE the line, unsubscribe, tell the web side
            state = State.ENDING;
            endedBy = fromPhone ? CallEnd.PHONE_HANGUP : CallEnd.FAILED;
            teardown(() -> finish(null));
        }
    }

    /** The web hang-up: BYE phone, BYE line, {@code done} when both are down, then the unsubscription. */
    void hangUp(CompletableFuture<Void> done) {
        if (state != State.CONNECTED) {
            done.completeExceptionally(new CallFailure("no-call", user + " has no call up"));
            return;
        }
        state = State.ENDING;
        endedBy = CallEnd.WEB_HANGUP;
        bye(phone, () -> bye(line, () -> {
            phone = null;
            line = null;
            done.complete(null);
            unsubscribe(() -> finish(null));
        }));
    }

    /** A failure while setting up or mid-call: counted, whatever was set up is torn down, then reported. */
    private void fail(String reason) {
        if (state == State.ENDING || state == State.DONE) {
            return;
        }
        boolean wasConnected = state == State.CONNECTED;
        state = State.ENDING;
        owner.count("calls.failures." + reason);
        endedBy = wasConnected ? CallEnd.FAILED : null;
        teardown(() -> finish(wasConnected ? null : new CallFailure(reason, user + ": " + reason)));
    }

    private void teardown(Runnable then) {
        bye(phone, () -> bye(line, () -> {
            phone = null;
            line = null;
            unsubscribe(then);
        }));
    }

    /** BYE a leg (ACKing its 2xx first if the call never got that far) and go on whatever the answer. */
    private void bye(Dialog leg, Runnable then) {
        if (leg == null || leg.terminated()) {
            then.run();
            return;
        }
        replicate(Moment.MESSAGE);
        if (!leg.acked()) {
            leg.ack(Body.NONE);
        }
        leg.send("BYE", List.of(), Body.NONE).finalResponse().whenComplete((response, error) -> {
            if (error != null) {
                owner.count("calls.failures.bye-timeout");
            }
            then.run();
        });
    }

    /** Steps 18-21: SUBSCRIBE with Expires: 0; done when its answer and the final NOTIFY are both in (or late). */
    private void unsubscribe(Runnable then) {
        Dialog dialog = subscription;
        if (dialog == null || dialog.terminated() || finalNotify) {
            then.run();
            return;
        }
        boolean[] answered = new boolean[1];
        boolean[] done = new boolean[1];
        Runnable once = () -> {
            if (!done[0]) {
                done[0] = true;
                dialog.terminate();
                then.run();
            }
        };
        afterFinalNotify = () -> {
            if (answered[0]) {
                once.run();
            }
        };
        replicate(Moment.MESSAGE);
        dialog.send("SUBSCRIBE", Header.of("Event", "message-summary", "Expires", "0",
                "Accept", "application/simple-message-summary"), Body.NONE)
                .finalResponse().whenComplete((response, error) -> {
                    answered[0] = true;
                    if (error != null || !response.isSuccess() || finalNotify) {
                        once.run();
                    }
                });
        timeouts.add(owner.later(this, owner.config().timers().transactionTimeoutMillis(), () -> {
            if (!done[0]) {
                owner.count("calls.failures.unsubscribe-timeout");
                once.run();
            }
        }));
    }

    /**
     * Offers the user's session for a copy to the partner instance at {@code moment}: built only when the mode
     * ({@code --replication}) writes then. Before a message goes out, so that the partner's copy already names it.
     */
    private void replicate(Moment moment) {
        if (owner.replicas().writesAt(moment)) {
            owner.replicas().write(copy(), moment);
        }
    }

    /** Writes the copy again, as it stands, unless the call is over (its copy removed). */
    void rewrite() {
        if (state != State.DONE) {
            write();
        }
    }

    /** Writes the copy now, whatever the mode's moments: the call just moved here, or its browser did. */
    void write() {
        owner.replicas().write(copy(), null);
    }

    private UserReplica copy() {
        return new UserReplica(user, webSession, state.name(), flags(),
                Arrays.asList(snapshot(subscription), snapshot(phone), snapshot(line)), generation);
    }

    private static DialogState snapshot(Dialog dialog) {
        return dialog == null || dialog.terminated() ? null : dialog.snapshot();
    }

    /** {@link UserReplica#flags()}: subscription accepted, notified, final NOTIFY seen. */
    private int flags() {
        return (subscribeAccepted ? 1 : 0) | (notified ? 2 : 0) | (finalNotify ? 4 : 0);
    }

    private void finish(CallFailure failure) {
        state = State.DONE;
        timeouts.forEach(t -> t.cancel(false));
        timeouts.clear();
        owner.remove(user, this);
        owner.replicas().remove(user);
        if (failure != null) {
            connected.completeExceptionally(failure);
            if (restartsSetup) {
                owner.count("calls.ended.failed");
                ended.accept(CallEnd.FAILED);
            }
            return;
        }
        if (endedBy != null) {
            owner.count("calls.ended." + endedBy.name().toLowerCase(Locale.ROOT).replace('_', '-'));
            ended.accept(endedBy);
        }
    }
}

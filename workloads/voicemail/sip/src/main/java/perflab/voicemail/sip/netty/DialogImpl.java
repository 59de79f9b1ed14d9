package perflab.voicemail.sip.netty;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.ClientTransaction;
import perflab.voicemail.sip.Dialog;
import perflab.voicemail.sip.DialogState;
import perflab.voicemail.sip.Header;
import perflab.voicemail.sip.RequestHandler;

/**
 * RFC 3261 section 12's dialog state. Its identity, addresses, remote target and route set are fixed when it is
 * made (no target refresh: this application's peers do not move); the local CSeq counts up on the application's
 * threads; the remote CSeq, the ACK bookkeeping and the table it sits in belong to the I/O thread (the remote CSeq is
 * also read for a replica's snapshot).
 */
final class DialogImpl implements Dialog {
    private final NettySipStack stack;
    private final String callId;
    private final String localTag;
    private final String remoteTag;
    /** From (ours) and To (the peer's) without tags, as in the request that made the dialog. */
    private final String localAddress;
    private final String remoteAddress;
    private final String remoteTarget;
    private final List<String> routes;
    private final InetSocketAddress destination;
    private final Executor executor;
    private final AtomicLong localCSeq;
    /** The CSeq of our INVITE, for the ACK of its 2xx; -1 when we did not send the INVITE. */
    private final long inviteCSeq;
    private volatile RequestHandler handler;
    private volatile boolean terminated;
    private volatile byte[] ack;
    /** An adopted dialog whose ACK the instance that made it sent (its bytes stayed there). */
    private final boolean ackedBefore;
    /** Written on the I/O thread; volatile because a replica's {@link #snapshot()} reads it on the user's thread. */
    volatile long remoteCSeq = -1;
    private InviteServerTx unackedInvite;
    private boolean ackSeen;

    private DialogImpl(NettySipStack stack, String callId, String localTag, String remoteTag, String localAddress,
                       String remoteAddress, String remoteTarget, List<String> routes, InetSocketAddress fallback,
                       Executor executor, long localCSeq, long inviteCSeq, RequestHandler handler) {
        this(stack, callId, localTag, remoteTag, localAddress, remoteAddress, remoteTarget, routes, fallback, executor,
                localCSeq, inviteCSeq, handler, false);
    }

    private DialogImpl(NettySipStack stack, String callId, String localTag, String remoteTag, String localAddress,
                       String remoteAddress, String remoteTarget, List<String> routes, InetSocketAddress fallback,
                       Executor executor, long localCSeq, long inviteCSeq, RequestHandler handler, boolean ackedBefore) {
        this.ackedBefore = ackedBefore;
        this.stack = stack;
        this.callId = callId;
        this.localTag = localTag;
        this.remoteTag = remoteTag;
        this.localAddress = localAddress;
        this.remoteAddress = remoteAddress;
        this.remoteTarget = remoteTarget;
        this.routes = List.copyOf(routes);
        InetSocketAddress next = address(routes.isEmpty() ? remoteTarget : HeaderValues.uri(routes.get(0)));
        this.destination = next != null ? next : fallback;
        this.executor = executor;
        this.localCSeq = new AtomicLong(localCSeq);
        this.inviteCSeq = inviteCSeq;
        this.handler = handler;
    }

    /** Made by the 2xx to our INVITE or SUBSCRIBE (section 12.1.2): route set is the Record-Route reversed. */
    static DialogImpl asClient(NettySipStack stack, ClientTx tx, ParsedResponse response) {
        List<String> routes = new ArrayList<>(response.headers("record-route"));
        Collections.reverse(routes);
        String target = HeaderValues.uri(response.header("contact"));
        return new DialogImpl(stack, tx.line.callId(), HeaderValues.param(tx.line.from(), "tag"), response.toTag,
                HeaderValues.address(tx.line.from()), HeaderValues.address(tx.line.to()),
                target != null ? target : tx.line.uri(), routes, tx.destination, tx.executor, tx.line.cseq(),
                tx.line.method().equals("INVITE") ? tx.line.cseq() : -1, tx.inDialog);
    }

    /** Made by a NOTIFY that came before the 2xx to our SUBSCRIBE (RFC 6665 section 4.1.2.4). */
    static DialogImpl fromEarlyNotify(NettySipStack stack, ClientTx subscribe, ParsedRequest notify,
                                      InetSocketAddress source) {
        String target = HeaderValues.uri(notify.header("contact"));
        return new DialogImpl(stack, notify.callId, notify.toTag, notify.fromTag,
                HeaderValues.address(subscribe.line.from()), HeaderValues.address(subscribe.line.to()),
                target != null ? target : subscribe.line.uri(), notify.headers("record-route"), source,
                subscribe.executor, subscribe.line.cseq(), -1, subscribe.inDialog);
    }

    /** Made by our 2xx to the peer's INVITE or SUBSCRIBE (section 12.1.1): Record-Route kept in order. */
    static DialogImpl asServer(NettySipStack stack, ServerTx tx) {
        ParsedRequest request = tx.request;
        String target = HeaderValues.uri(request.header("contact"));
        DialogImpl dialog = new DialogImpl(stack, request.callId, tx.localTag, request.fromTag,
                HeaderValues.address(request.to), HeaderValues.address(request.from),
                target != null ? target : HeaderValues.uri(request.from), request.headers("record-route"),
                tx.source, tx.executor, 0, -1, stack.config().handler());
        dialog.remoteCSeq = request.cseq;
        return dialog;
    }

    /**
     * Taken over from another instance's snapshot ({@link NettySipStack#adopt}): its next hop from its route set or
     * remote target as when it was made (numeric addresses: there is no first message here to fall back on).
     */
    static DialogImpl adopted(NettySipStack stack, DialogState state, Executor executor, RequestHandler handler) {
        DialogImpl dialog = new DialogImpl(stack, state.callId(), state.localTag(), state.remoteTag(), state.localAddress(),
                state.remoteAddress(), state.remoteTarget(), state.routes(), null, executor, state.localCSeq(),
                state.inviteCSeq(), handler, state.acked());
        if (dialog.destination == null) {
            throw new IllegalArgumentException("an adopted dialog's next hop is not a numeric address: "
                    + (state.routes().isEmpty() ? state.remoteTarget() : state.routes().get(0)));
        }
        dialog.remoteCSeq = state.remoteCSeq();
        return dialog;
    }

    private static InetSocketAddress address(String uri) {
        String[] hostPort = HeaderValues.hostPort(uri);
        if (hostPort == null || !isNumeric(hostPort[0])) {
            return null; // no DNS here: the fallback is where the dialog's first message came from
        }
        try {
            int port = Integer.parseInt(hostPort[1]);
            return new InetSocketAddress(InetAddress.getByName(hostPort[0]), port < 0 ? 5060 : port);
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    private static boolean isNumeric(String host) {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (!(c == '.' || c == ':' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
                return false;
            }
        }
        return !host.isEmpty();
    }

    String key() {
        return NettySipStack.dialogKey(callId, localTag, remoteTag);
    }

    @Override
    public String callId() {
        return callId;
    }

    @Override
    public String localTag() {
        return localTag;
    }

    @Override
    public String remoteTag() {
        return remoteTag;
    }

    @Override
    public String remoteTarget() {
        return remoteTarget;
    }

    @Override
    public Executor executor() {
        return executor;
    }

    RequestHandler handler() {
        return handler;
    }

    @Override
    public void handler(RequestHandler newHandler) {
        this.handler = newHandler;
    }

    @Override
    public ClientTransaction send(String method, List<Header> headers, Body body) {
        if (method.equals("ACK") || method.equals("CANCEL")) {
            throw new IllegalArgumentException("use ack(); CANCEL is not supported");
        }
        return stack.sendInDialog(this, line(method, Ids.branch(), localCSeq.incrementAndGet()), headers, body,
                destination);
    }

    @Override
    public void ack(Body body) {
        if (inviteCSeq < 0) {
            throw new IllegalStateException("no INVITE of ours to acknowledge in this dialog");
        }
        byte[] bytes = MessageWriter.request(line("ACK", Ids.branch(), inviteCSeq), List.of(), body,
                stack.config().userAgent());
        ack = bytes;
        stack.onLoop(() -> stack.sendRequest(bytes, destination, "ACK"));
    }

    private MessageWriter.RequestLine line(String method, String branch, long cseq) {
        return new MessageWriter.RequestLine(method, remoteTarget, stack.via(branch),
                localAddress + ";tag=" + localTag, remoteAddress + ";tag=" + remoteTag, callId, cseq, routes, null);
    }

    @Override
    public boolean acked() {
        return ack != null || ackedBefore;
    }

    /** On the I/O thread: the peer repeated the 2xx to our INVITE; it gets our ACK again if we sent one. */
    void onRetransmitted2xx() {
        byte[] bytes = ack;
        if (bytes != null) {
            stack.resend(bytes, destination);
        }
    }

    /** On the I/O thread: our 2xx to this INVITE is repeated until its ACK. */
    void awaitAck(InviteServerTx invite) {
        unackedInvite = invite;
    }

    /** On the I/O thread: the ACK for our 2xx; the application hears of the first one only. */
    void onAck(ParsedRequest request) {
        if (unackedInvite != null) {
            unackedInvite.onAcked();
            unackedInvite = null;
        }
        if (ackSeen) {
            stack.countAbsorbed();
            return;
        }
        ackSeen = true;
        RequestHandler h = handler;
        executor.execute(() -> h.onAck(this, request));
    }

    @Override
    public DialogState snapshot() {
        return new DialogState(callId, localTag, remoteTag, localAddress, remoteAddress, remoteTarget, routes,
                localCSeq.get(), inviteCSeq, remoteCSeq, acked());
    }

    @Override
    public void terminate() {
        if (!terminated) {
            terminated = true;
            // transactions outlive their dialog (Timer J keeps a non-INVITE server transaction 64 x T1 to absorb
            // retransmissions): let go of the application's handler, so that they do not keep the ended call alive
            handler = stack.config().handler();
            stack.onLoop(() -> stack.unregister(this));
        }
    }

    @Override
    public boolean terminated() {
        return terminated;
    }

    @Override
    public String toString() {
        return "dialog " + callId + " " + localTag + "/" + remoteTag;
    }
}

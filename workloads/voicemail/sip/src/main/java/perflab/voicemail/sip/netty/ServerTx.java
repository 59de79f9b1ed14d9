package perflab.voicemail.sip.netty;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.Dialog;
import perflab.voicemail.sip.Header;
import perflab.voicemail.sip.ServerTransaction;
import perflab.voicemail.sip.SipRequest;

/**
 * What both server transactions share (RFC 3261 section 17.2): the request, where its responses go (section 18.2.2
 * with RFC 3581), the last response for retransmitted requests, and the To tag of every response. The application
 * answers from its own thread: the response is written there, and its sending and the state change happen on the
 * I/O thread, in order.
 */
abstract class ServerTx implements ServerTransaction {
    final NettySipStack stack;
    final String key;
    final ParsedRequest request;
    final InetSocketAddress responseAddress;
    final InetSocketAddress source;
    final Executor executor;
    /** Our To tag when the request came without one: the same on every response, the dialog's local tag. */
    final String localTag;
    private final AtomicBoolean finalSent = new AtomicBoolean();
    private volatile DialogImpl dialog;
    byte[] lastResponse;
    ScheduledFuture<?> retransmitTimer;
    ScheduledFuture<?> endTimer;
    long interval;
    boolean terminated;

    ServerTx(NettySipStack stack, String key, ParsedRequest request, InetSocketAddress source, Executor executor,
             DialogImpl dialog) {
        this.stack = stack;
        this.key = key;
        this.request = request;
        this.source = source;
        this.responseAddress = NettySipStack.responseAddress(request, source);
        this.executor = executor;
        this.dialog = dialog;
        this.localTag = request.toTag != null ? request.toTag : Ids.tag();
    }

    @Override
    public SipRequest request() {
        return request;
    }

    @Override
    public Dialog dialog() {
        return dialog;
    }

    @Override
    public synchronized Dialog acceptDialog() {
        if (dialog == null && NettySipStack.createsDialog(request.method())) {
            DialogImpl made = DialogImpl.asServer(stack, this);
            dialog = made;
            stack.onLoop(() -> stack.register(made));
        }
        return dialog;
    }

    @Override
    public void respond(int status, String reason, List<Header> headers, Body body) {
        if (status < 100 || status > 699 || reason == null || reason.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("status " + status + " " + reason);
        }
        if (status >= 200 && !finalSent.compareAndSet(false, true)) {
            throw new IllegalStateException(request.method() + " already has its final response");
        }
        DialogImpl made = null;
        String contact = null;
        synchronized (this) {
            if (status >= 200 && status < 300 && dialog == null && NettySipStack.createsDialog(request.method())) {
                made = DialogImpl.asServer(stack, this);
                dialog = made;
            }
        }
        if (status < 300 && NettySipStack.createsDialog(request.method())) {
            contact = stack.contact(HeaderValues.uri(request.requestUri()));
        }
        byte[] bytes = MessageWriter.response(request, source.getAddress().getHostAddress(), source.getPort(),
                status, reason, localTag, contact, headers, body, stack.config().userAgent());
        DialogImpl registered = made;
        stack.onLoop(() -> {
            if (registered != null) {
                stack.register(registered);
            }
            if (status >= 200 && status < 300 && request.method().equals("INVITE") && dialog != null) {
                ((DialogImpl) dialog).awaitAck((InviteServerTx) this);
            }
            send(status, bytes);
            if (status >= 200 && status < 300 && request.method().equals("BYE") && dialog != null) {
                dialog.terminate();
            }
        });
    }

    boolean answered() {
        return finalSent.get();
    }

    /** On the I/O thread: send a response and move the state machine. */
    abstract void send(int status, byte[] bytes);

    /** On the I/O thread: the peer sent the request again. */
    abstract void onRetransmission();

    void resendLast() {
        stack.resend(lastResponse, responseAddress);
    }

    void endAfter(long millis) {
        ClientTx.cancel(endTimer);
        endTimer = stack.schedule(this::terminate, millis);
    }

    void terminate() {
        if (!terminated) {
            terminated = true;
            ClientTx.cancel(retransmitTimer);
            ClientTx.cancel(endTimer);
            stack.removeServer(this);
        }
    }

    /** The application never answered: a 500, so that the peer stops and our table does not keep it. */
    void onUnanswered() {
        if (!terminated && finalSent.compareAndSet(false, true)) {
            stack.countUnanswered();
            send(500, MessageWriter.response(request, source.getAddress().getHostAddress(), source.getPort(), 500,
                    "Server Internal Error", localTag, null, List.of(), Body.NONE, stack.config().userAgent()));
        }
    }
}

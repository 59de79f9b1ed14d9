package perflab.voicemail.sip.netty;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import perflab.voicemail.sip.ClientTransaction;
import perflab.voicemail.sip.Dialog;
import perflab.voicemail.sip.RequestHandler;
import perflab.voicemail.sip.SipResponse;
import perflab.voicemail.sip.SipTimeoutException;

/**
 * What both client transactions share (RFC 3261 section 17.1): the request's bytes, a retransmission timer that
 * doubles, a timeout, and the answer handed to the application once on its executor. Its state is touched only on
 * the I/O thread; the application sees the future and the dialog.
 */
abstract class ClientTx implements ClientTransaction {
    final NettySipStack stack;
    final MessageWriter.RequestLine line;
    final String branch;
    final byte[] request;
    final InetSocketAddress destination;
    final Executor executor;
    /** Requests in the dialog this one creates go here. */
    final RequestHandler inDialog;
    /** The dialog this request was sent in; null for a request outside any dialog. */
    final DialogImpl owner;
    private final CompletableFuture<SipResponse> response = new CompletableFuture<>();
    private volatile DialogImpl dialog;
    private ScheduledFuture<?> retransmitTimer;
    private ScheduledFuture<?> timeoutTimer;
    long interval;
    boolean terminated;

    ClientTx(NettySipStack stack, MessageWriter.RequestLine line, String branch, byte[] request,
             InetSocketAddress destination, Executor executor, RequestHandler inDialog, DialogImpl owner) {
        this.stack = stack;
        this.line = line;
        this.branch = branch;
        this.request = request;
        this.destination = destination;
        this.executor = executor;
        this.inDialog = inDialog;
        this.owner = owner;
    }

    @Override
    public String method() {
        return line.method();
    }

    @Override
    public CompletableFuture<SipResponse> finalResponse() {
        return response;
    }

    @Override
    public Dialog dialog() {
        return dialog;
    }

    void dialog(DialogImpl made) {
        this.dialog = made;
    }

    DialogImpl madeDialog() {
        return dialog;
    }

    /** On the I/O thread: first send, Timer A or E, Timer B or F. */
    void start() {
        stack.sendRequest(request, destination, line.method());
        interval = stack.timers().firstRetransmitMillis();
        retransmitTimer = stack.schedule(this::onRetransmitTimer, interval);
        timeoutTimer = stack.schedule(this::onTimeout, stack.timers().transactionTimeoutMillis());
    }

    /** On the I/O thread: a response whose branch and CSeq method are this transaction's. */
    abstract void onResponse(ParsedResponse response);

    abstract void onRetransmitTimer();

    void retransmit(boolean capAtT2) {
        stack.resend(request, destination);
        interval = stack.timers().nextRetransmitMillis(interval, capAtT2);
        retransmitTimer = stack.schedule(this::onRetransmitTimer, interval);
    }

    void stopTimers() {
        cancel(retransmitTimer);
        cancel(timeoutTimer);
        retransmitTimer = null;
        timeoutTimer = null;
    }

    /** Restarts the timeout (Timer C after a provisional answer to INVITE). */
    void restartTimeout(long millis) {
        cancel(timeoutTimer);
        timeoutTimer = stack.schedule(this::onTimeout, millis);
    }

    static void cancel(ScheduledFuture<?> timer) {
        if (timer != null) {
            timer.cancel(false);
        }
    }

    /** The final response, once, to the application. */
    void deliver(ParsedResponse finalResponse) {
        stack.onClientFinal(this, finalResponse);
        executor.execute(() -> response.complete(finalResponse));
    }

    void onTimeout() {
        if (terminated) {
            return;
        }
        stack.countTimeout();
        terminate();
        stack.onClientFinal(this, null);
        SipTimeoutException timeout = new SipTimeoutException(line.method() + " to " + line.uri()
                + ": no final response in time");
        executor.execute(() -> response.completeExceptionally(timeout));
    }

    /** Leaves the stack's table after the wait for retransmitted responses. */
    void terminateAfter(long millis) {
        stack.schedule(this::terminate, millis);
    }

    void terminate() {
        if (!terminated) {
            terminated = true;
            stopTimers();
            stack.removeClient(this);
        }
    }
}

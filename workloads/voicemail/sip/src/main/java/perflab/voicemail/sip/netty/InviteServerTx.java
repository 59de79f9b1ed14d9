package perflab.voicemail.sip.netty;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Executor;
import perflab.voicemail.sip.Body;

/**
 * RFC 3261 section 17.2.1 (figure 7) with RFC 6026: Proceeding (a 100 Trying goes out at once so the peer stops
 * retransmitting; retransmitted INVITEs get the last provisional response), Accepted after a 2xx (retransmitted
 * until the ACK reaches the dialog, T1 doubling up to T2, as section 13.3.1.4 asks of the UAS core; retransmitted
 * INVITEs absorbed; Timer L), Completed after an error (Timer G retransmits it until the ACK, Timer H gives up),
 * Confirmed (Timer I absorbs ACK retransmissions).
 */
final class InviteServerTx extends ServerTx {
    private enum State { PROCEEDING, ACCEPTED, COMPLETED, CONFIRMED }

    private State state = State.PROCEEDING;

    InviteServerTx(NettySipStack stack, String key, ParsedRequest request, InetSocketAddress source,
                   Executor executor, DialogImpl dialog) {
        super(stack, key, request, source, executor, dialog);
        endTimer = stack.schedule(this::onUnanswered, stack.timers().provisionalTimeoutMillis());
    }

    /** On the I/O thread, when the stack made the transaction. */
    void trying() {
        lastResponse = MessageWriter.response(request, source.getAddress().getHostAddress(), source.getPort(), 100,
                "Trying", null, null, List.of(), Body.NONE, stack.config().userAgent());
        stack.sendResponse(lastResponse, responseAddress, 100);
    }

    @Override
    void send(int status, byte[] bytes) {
        if (state != State.PROCEEDING || terminated) {
            return;
        }
        lastResponse = bytes;
        stack.sendResponse(bytes, responseAddress, status);
        if (status < 200) {
            return;
        }
        state = status < 300 ? State.ACCEPTED : State.COMPLETED;
        interval = stack.timers().firstRetransmitMillis();
        retransmitTimer = stack.schedule(this::onRetransmitTimer, interval);
        endAfter(stack.timers().transactionTimeoutMillis());
    }

    private void onRetransmitTimer() {
        if (state == State.ACCEPTED || state == State.COMPLETED) {
            resendLast();
            interval = stack.timers().nextRetransmitMillis(interval, true);
            retransmitTimer = stack.schedule(this::onRetransmitTimer, interval);
        }
    }

    @Override
    void onRetransmission() {
        stack.countAbsorbed();
        if (state == State.PROCEEDING || state == State.COMPLETED) {
            resendLast();
        }
    }

    /** The ACK for our error response (same branch as the INVITE). */
    void onErrorAck() {
        stack.countAbsorbedIf(state != State.COMPLETED);
        if (state == State.COMPLETED) {
            state = State.CONFIRMED;
            ClientTx.cancel(retransmitTimer);
            endAfter(stack.timers().timerKMillis());
        }
    }

    /** The dialog got the ACK for our 2xx: stop repeating it; Timer L still absorbs late INVITE copies. */
    void onAcked() {
        ClientTx.cancel(retransmitTimer);
        retransmitTimer = null;
        state = State.CONFIRMED;
    }

    @Override
    void terminate() {
        if (state == State.ACCEPTED) {
            // RFC 3261 section 13.3.1.4: no ACK for our 2xx, the dialog is over (and must not stay in our table)
            stack.countAckTimeout();
            if (dialog() != null) {
                dialog().terminate();
            }
        }
        super.terminate();
    }
}

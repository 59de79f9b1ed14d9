package perflab.voicemail.sip.netty;

import java.net.InetSocketAddress;
import java.util.concurrent.Executor;

/**
 * RFC 3261 section 17.2.2 (figure 8): Trying (retransmissions absorbed, nothing to repeat yet), Proceeding (they get
 * the last provisional response), Completed (they get the final one, until Timer J, 64 x T1 over UDP).
 */
final class NonInviteServerTx extends ServerTx {
    private enum State { TRYING, PROCEEDING, COMPLETED }

    private State state = State.TRYING;

    NonInviteServerTx(NettySipStack stack, String key, ParsedRequest request, InetSocketAddress source,
                      Executor executor, DialogImpl dialog) {
        super(stack, key, request, source, executor, dialog);
        // an application that never answers must not keep the transaction forever
        endTimer = stack.schedule(this::onUnanswered, stack.timers().transactionTimeoutMillis());
    }

    @Override
    void send(int status, byte[] bytes) {
        if (state == State.COMPLETED || terminated) {
            return;
        }
        lastResponse = bytes;
        stack.sendResponse(bytes, responseAddress, status);
        if (status >= 200) {
            state = State.COMPLETED;
            endAfter(stack.timers().transactionTimeoutMillis());
        } else {
            state = State.PROCEEDING;
        }
    }

    @Override
    void onRetransmission() {
        stack.countAbsorbed();
        if (state != State.TRYING) {
            resendLast();
        }
    }
}

package perflab.voicemail.sip.netty;

import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import perflab.voicemail.sip.RequestHandler;

/**
 * RFC 3261 section 17.1.2 (figure 6): Trying, Proceeding, Completed. Timer E retransmits (T1 doubling up to T2, T2
 * once a provisional came), Timer F gives up at 64 x T1, Timer K (T4) absorbs the final response's retransmissions.
 */
final class NonInviteClientTx extends ClientTx {
    private enum State { TRYING, PROCEEDING, COMPLETED }

    private State state = State.TRYING;

    NonInviteClientTx(NettySipStack stack, MessageWriter.RequestLine line, String branch, byte[] request,
                      InetSocketAddress destination, Executor executor, RequestHandler inDialog, DialogImpl owner) {
        super(stack, line, branch, request, destination, executor, inDialog, owner);
    }

    @Override
    void onResponse(ParsedResponse response) {
        if (state == State.COMPLETED) {
            stack.countAbsorbed();
            return;
        }
        if (response.status() < 200) {
            state = State.PROCEEDING;
            return;
        }
        state = State.COMPLETED;
        stopTimers();
        deliver(response);
        terminateAfter(stack.timers().timerKMillis());
    }

    @Override
    void onRetransmitTimer() {
        if (state == State.TRYING) {
            retransmit(true);
        } else if (state == State.PROCEEDING) {
            interval = stack.timers().t2Millis() / 2; // so that the doubling in retransmit() gives T2
            retransmit(true);
        }
    }
}

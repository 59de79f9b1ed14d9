package perflab.voicemail.sip.netty;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Executor;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.RequestHandler;

/**
 * RFC 3261 section 17.1.1 (figure 5) with RFC 6026's Accepted state: Calling (Timer A retransmits, doubling; Timer
 * B gives up), Proceeding (Timer C), Completed after an error answer (the transaction ACKs it, and again for every
 * retransmission, until Timer D), Accepted after a 2xx (its retransmissions go to the dialog, which repeats its
 * ACK, until Timer M). The ACK for a 2xx is the dialog's, not the transaction's: it may carry the answer.
 */
final class InviteClientTx extends ClientTx {
    private enum State { CALLING, PROCEEDING, ACCEPTED, COMPLETED }

    private State state = State.CALLING;
    private byte[] errorAck;

    InviteClientTx(NettySipStack stack, MessageWriter.RequestLine line, String branch, byte[] request,
                   InetSocketAddress destination, Executor executor, RequestHandler inDialog) {
        super(stack, line, branch, request, destination, executor, inDialog, null);
    }

    @Override
    void onResponse(ParsedResponse response) {
        int status = response.status();
        switch (state) {
            case CALLING, PROCEEDING -> {
                if (status < 200) {
                    state = State.PROCEEDING;
                    stopTimers();
                    restartTimeout(stack.timers().provisionalTimeoutMillis());
                } else if (status < 300) {
                    state = State.ACCEPTED;
                    stopTimers();
                    deliver(response);
                    terminateAfter(stack.timers().transactionTimeoutMillis());
                } else {
                    state = State.COMPLETED;
                    stopTimers();
                    errorAck = errorAck(response);
                    stack.sendRequest(errorAck, destination, "ACK");
                    deliver(response);
                    terminateAfter(stack.timers().timerDMillis());
                }
            }
            case ACCEPTED -> {
                stack.countAbsorbed();
                if (status >= 200 && status < 300) {
                    stack.retransmitted2xx(response);
                }
            }
            case COMPLETED -> {
                stack.countAbsorbed();
                if (status >= 300) {
                    stack.resend(errorAck, destination);
                }
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    /** RFC 3261 section 17.1.1.3: the INVITE's branch and Request-URI, the response's To. */
    private byte[] errorAck(ParsedResponse response) {
        MessageWriter.RequestLine ack = new MessageWriter.RequestLine("ACK", line.uri(), line.via(), line.from(),
                response.to, line.callId(), line.cseq(), line.routes(), null);
        return MessageWriter.request(ack, List.of(), Body.NONE, null);
    }

    @Override
    void onRetransmitTimer() {
        if (state == State.CALLING) {
            retransmit(false);
        }
    }
}

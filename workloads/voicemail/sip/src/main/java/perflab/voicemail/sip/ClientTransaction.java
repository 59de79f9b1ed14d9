package perflab.voicemail.sip;

import java.util.concurrent.CompletableFuture;

/**
 * A request we sent and its answer (RFC 3261 section 17.1): the stack retransmits it (Timers A/E) until a response
 * comes and gives up after Timer B/F (the future then fails with {@link SipTimeoutException}). Retransmitted
 * responses are absorbed here and never reach the application.
 */
public interface ClientTransaction {
    String method();

    /**
     * The final response (any status, the application decides what an error means), completed on the request's
     * executor. Provisional responses are not reported: this application has no use for them.
     */
    CompletableFuture<SipResponse> finalResponse();

    /** The dialog a 2xx (or, for SUBSCRIBE, an early NOTIFY) created; null before, and for requests that make none. */
    Dialog dialog();
}

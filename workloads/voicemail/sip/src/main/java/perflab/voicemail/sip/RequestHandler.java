package perflab.voicemail.sip;

/** Receives the peer's requests; runs on the request's executor (the dialog's, or the stack's per Call-ID). */
public interface RequestHandler {
    void onRequest(ServerTransaction transaction);

    /** The ACK for a 2xx this side sent to an INVITE (it has no transaction: RFC 3261 section 13.3.1.4). */
    default void onAck(Dialog dialog, SipRequest ack) {
    }
}

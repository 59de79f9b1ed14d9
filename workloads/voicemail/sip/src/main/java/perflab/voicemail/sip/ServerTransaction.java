package perflab.voicemail.sip;

import java.util.List;

/**
 * A request the peer sent (RFC 3261 section 17.2), given to the application once however often the peer
 * retransmits it; the retransmissions get the last response again from the stack. A request must be answered with
 * a final response exactly once; a second final response is refused.
 */
public interface ServerTransaction {
    SipRequest request();

    /**
     * Sends a response: provisional ones any number of times, then one final one. A 2xx to INVITE or SUBSCRIBE
     * creates the dialog (see {@link #dialog()}); a 2xx to INVITE is retransmitted until its ACK comes.
     */
    void respond(int status, String reason, List<Header> headers, Body body);

    default void respond(int status, String reason) {
        respond(status, reason, List.of(), Body.NONE);
    }

    /**
     * Makes the dialog of a SUBSCRIBE (or INVITE) now, before its 2xx, so that a notifier can send its NOTIFY first
     * (RFC 6665 section 4.1.2.4); the 2xx then confirms the same dialog.
     */
    Dialog acceptDialog();

    /** The dialog the request came in, or the one its 2xx created; null otherwise. */
    Dialog dialog();
}

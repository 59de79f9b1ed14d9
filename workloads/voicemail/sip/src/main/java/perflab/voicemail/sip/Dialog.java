package perflab.voicemail.sip;

import java.util.List;
import java.util.concurrent.Executor;

/**
 * A peer-to-peer relationship (RFC 3261 section 12): Call-ID, the local and remote tags, the local CSeq it counts up,
 * the remote CSeq it checks, the remote target from the peer's Contact and the route set. Requests in it go to its
 * handler on its executor.
 */
public interface Dialog {
    String callId();

    String localTag();

    String remoteTag();

    /** The URI in-dialog requests are sent to (the peer's Contact). */
    String remoteTarget();

    Executor executor();

    /** Sends a request in this dialog (BYE, SUBSCRIBE refresh, NOTIFY): next local CSeq, the remote target. */
    ClientTransaction send(String method, List<Header> headers, Body body);

    /**
     * The ACK for the 2xx to our INVITE (RFC 3261 section 13.2.2.4): sent now, and again whenever the peer
     * retransmits that 2xx, so the peer stops. The offer/answer rides in it when the INVITE carried none (RFC 3725).
     */
    void ack(Body body);

    /** Whether the 2xx to our INVITE has been acknowledged (false for dialogs not made by our INVITE). */
    boolean acked();

    /** Who gets the peer's requests in this dialog (replaces the one given when it was made). */
    void handler(RequestHandler handler);

    /** Its state as it stands, for a replica on another instance. */
    DialogState snapshot();

    /** Forgets the dialog: later requests in it get 481. BYE's 2xx does this by itself. */
    void terminate();

    boolean terminated();
}

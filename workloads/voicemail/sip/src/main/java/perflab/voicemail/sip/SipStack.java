package perflab.voicemail.sip;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * An RFC 3261 user agent's transaction and dialog layer over UDP, as the application sees it. The application names
 * no implementation beyond the line that opens one, so that another stack (JAIN-SIP RI, say) can be measured behind
 * the same calls. Every method may be called from any thread; callbacks run on the {@link Executor} the application
 * gave for the request or dialog concerned, never on the I/O thread.
 */
public interface SipStack extends AutoCloseable {
    /** Where the stack listens (the port chosen when the configuration asked for 0). */
    InetSocketAddress localAddress();

    /**
     * Sends a request outside any dialog (INVITE, SUBSCRIBE, OPTIONS...): the stack adds Via (with rport and a
     * z9hG4bK branch), Call-ID, From tag, CSeq, Max-Forwards, Contact (for dialog-creating methods) and
     * Content-Length. A 2xx to INVITE or SUBSCRIBE, or for SUBSCRIBE a NOTIFY that comes before it, creates the
     * {@link ClientTransaction#dialog() dialog}; requests in it go to {@code inDialog}.
     *
     * @param callbacks where the transaction's and its dialog's callbacks run (the user's serial executor)
     * @param inDialog  requests the peer sends in the dialog this request creates; may be null when none is made
     */
    ClientTransaction send(NewRequest request, Executor callbacks, RequestHandler inDialog);

    /**
     * Takes over a dialog another instance made, from its {@link Dialog#snapshot()}: requests in it are served here
     * from now on, with the CSeqs it had. On the I/O thread (from {@link StrayDialogs}) it is there at once; from
     * another thread, as soon as the I/O thread gets to it.
     *
     * @param callbacks where the dialog's callbacks run (the user's serial executor)
     * @param handler   who gets the peer's requests in it
     */
    Dialog adopt(DialogState state, Executor callbacks, RequestHandler handler);

    /** Who is asked about requests in dialogs this stack does not hold, before they get 481; null: nobody. */
    void strays(StrayDialogs strays);

    /** The application's counters: messages in and out, retransmissions, drops by reason, live state. */
    Map<String, Long> counters();

    /** Stops listening; live transactions are dropped without callbacks. */
    @Override
    void close();
}

package perflab.voicemail.sip;

/**
 * Asked by the stack about a request in a dialog it does not hold, before it answers 481: the application may hold a
 * copy of that dialog (a failed partner instance's user, whose requests a proxy now sends here) and adopt it with
 * {@link SipStack#adopt}. Runs on the stack's I/O thread, so it must be quick (a read of local memory).
 */
@FunctionalInterface
public interface StrayDialogs {
    /**
     * Adopts the dialogs of {@code user}, the user part of the request's Request-URI, if the application holds a copy
     * of them; whether it did (the stack then looks the dialog up again).
     */
    boolean adopt(String user);

    /**
     * Asked when {@link #adopt} did not: whether {@code user}'s dialogs may be alive at another instance that serves
     * them now (the partner, in the middle of a transaction this one cannot take over). The stack then answers 503, so
     * that the proxy in front tries its next destination, the partner, rather than 481, which would end the peer's
     * dialog (RFC 3261 section 16.7: a proxy may try other targets after a 503).
     */
    default boolean servedElsewhere(String user) {
        return false;
    }
}

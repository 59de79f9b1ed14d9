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
}

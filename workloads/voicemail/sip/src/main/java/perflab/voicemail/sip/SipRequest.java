package perflab.voicemail.sip;

/** A received request. */
public interface SipRequest extends SipMessage {
    String method();

    String requestUri();
}

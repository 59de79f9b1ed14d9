package perflab.voicemail.sip;

/** A received response. */
public interface SipResponse extends SipMessage {
    int status();

    String reason();

    default boolean isSuccess() {
        return status() >= 200 && status() < 300;
    }
}

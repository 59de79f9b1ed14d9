package perflab.voicemail.sip;

/** No final response came in time (Timer B or F, or Timer C after a provisional one). Expected: no stack trace. */
public final class SipTimeoutException extends RuntimeException {
    public SipTimeoutException(String message) {
        super(message, null, false, false);
    }
}

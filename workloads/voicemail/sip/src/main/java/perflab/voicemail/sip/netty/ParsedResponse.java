package perflab.voicemail.sip.netty;

import perflab.voicemail.sip.SipResponse;

final class ParsedResponse extends ParsedMessage implements SipResponse {
    private final int status;
    private final String reason;

    ParsedResponse(int status, String reason, String[] names, String[] values, byte[] body, String problem) {
        super(names, values, body, problem, null);
        this.status = status;
        this.reason = reason;
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return status + " " + reason + " to " + cseqMethod + " (" + callId + ")";
    }
}

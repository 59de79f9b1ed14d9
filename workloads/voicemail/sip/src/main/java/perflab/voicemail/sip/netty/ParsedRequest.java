package perflab.voicemail.sip.netty;

import perflab.voicemail.sip.SipRequest;

final class ParsedRequest extends ParsedMessage implements SipRequest {
    private final String method;
    private final String requestUri;

    ParsedRequest(String method, String requestUri, String[] names, String[] values, byte[] body, String problem) {
        super(names, values, body, problem, method);
        this.method = method;
        this.requestUri = requestUri;
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public String requestUri() {
        return requestUri;
    }

    @Override
    public String toString() {
        return method + " " + requestUri + " (" + callId + ")";
    }
}

package perflab.voicemail.sip;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;

/**
 * A request that opens a transaction outside any dialog.
 *
 * @param method      INVITE, SUBSCRIBE...
 * @param requestUri  e.g. {@code sip:u0000001@127.0.0.1:5070}
 * @param fromUri     our identity; the stack adds the tag (and Contact's user part comes from it)
 * @param toUri       the peer's identity
 * @param destination where the datagram goes (the peers are addressed directly, no DNS, no outbound proxy)
 * @param headers     the method's own headers (Event, Expires, Accept...); a Contact here replaces the stack's
 * @param body        the body, {@link Body#NONE} for none
 */
public record NewRequest(String method, String requestUri, String fromUri, String toUri,
                         InetSocketAddress destination, List<Header> headers, Body body) {
    public NewRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(requestUri, "requestUri");
        Objects.requireNonNull(fromUri, "fromUri");
        Objects.requireNonNull(toUri, "toUri");
        Objects.requireNonNull(destination, "destination");
        headers = List.copyOf(headers);
        Objects.requireNonNull(body, "body");
        if ("ACK".equals(method) || "CANCEL".equals(method)) {
            throw new IllegalArgumentException(method + " is sent by the transaction or dialog, not as a new request");
        }
    }
}

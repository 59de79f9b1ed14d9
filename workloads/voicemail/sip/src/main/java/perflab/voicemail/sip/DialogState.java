package perflab.voicemail.sip;

import java.util.List;
import java.util.Objects;

/**
 * What another instance needs to go on with a dialog (RFC 3261 section 12): its identity, the addresses and tags in
 * From and To, the remote target and route set, and the sequence numbers, so that the partner of a failed instance
 * answers the peer's next request in it (a BYE, a NOTIFY) and sends its own with the right CSeq. Taken by
 * {@link Dialog#snapshot()}; plain values, so a replica carries it as bytes.
 *
 * @param localAddress  our From (or To) without its tag, as in the request that made the dialog
 * @param remoteAddress the peer's, likewise
 * @param localCSeq     the CSeq of our last request in the dialog
 * @param inviteCSeq    the CSeq of our INVITE, for its ACK; -1 when we did not send one
 * @param remoteCSeq    the CSeq of the peer's last request; -1 before it sent one
 * @param acked         whether our ACK for the INVITE's 2xx went out
 */
public record DialogState(String callId, String localTag, String remoteTag, String localAddress, String remoteAddress,
                          String remoteTarget, List<String> routes, long localCSeq, long inviteCSeq, long remoteCSeq,
                          boolean acked) {
    public DialogState {
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(localTag, "localTag");
        Objects.requireNonNull(remoteTag, "remoteTag");
        Objects.requireNonNull(localAddress, "localAddress");
        Objects.requireNonNull(remoteAddress, "remoteAddress");
        Objects.requireNonNull(remoteTarget, "remoteTarget");
        routes = List.copyOf(routes);
    }
}

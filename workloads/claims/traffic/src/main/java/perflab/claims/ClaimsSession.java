package perflab.claims;

import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Verdict;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One claims client: rotates through the traffic's request kinds (regions, for the routing mediations) with
 * ids that increase per client. The cheap check scans bytes for what the back end echoes through the
 * mediation (the id or the context value, the right back end, the transformed value); the deep check parses it.
 */
final class ClaimsSession implements ClientSession {
    private static final long IDS_PER_CLIENT = 100_000_000L;
    /** withIdSlot's only slot. */
    private static final int ID_SLOT = 0;
    private static final long ID_RANGE = 10_000_000_000L;
    private static final byte[] REQUEST_ID = "requestId>".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRACKING_REF = "TrackingRef>".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FAULT = "Fault>".getBytes(StandardCharsets.US_ASCII);

    private final List<ClaimsTraffic.Case> cases;
    /** One request per case, its id set anew each time (a client has one out at a time): no allocation per request. */
    private final Request[] requests;
    private final byte[] idMarker;
    private final long idBase;
    private long counter;
    private int next;

    ClaimsSession(ClaimsTraffic traffic, int clientIndex) {
        this.cases = traffic.cases();
        this.idMarker = traffic.mediation().equals(perflab.claims.contract.ClaimsContract.TRANSFORM_SCHEMA) ? TRACKING_REF : REQUEST_ID;
        this.idBase = (clientIndex * IDS_PER_CLIENT) % ID_RANGE;
        this.next = clientIndex % cases.size();
        this.requests = new Request[cases.size()];
        for (int i = 0; i < requests.length; i++) {
            requests[i] = new Request(cases.get(i).template());
        }
    }

    @Override
    public Request next() {
        long id = (idBase + counter) % ID_RANGE;
        counter = (counter + 1) % IDS_PER_CLIENT;
        Request r = requests[next];
        next = (next + 1) % cases.size();
        return r.set(ID_SLOT, id);
    }

    private ClaimsTraffic.Case caseOf(Request request) {
        for (ClaimsTraffic.Case c : cases) {
            if (c.template() == request.template()) {
                return c;
            }
        }
        throw new IllegalStateException("a request this session did not make");
    }

    @Override
    public Verdict check(Request request, ResponseView response, boolean deep) {
        int status = response.status();
        if (status != 200) {
            if (status == 500 && response.indexOf(FAULT, 0) >= 0) {
                String reason = response.textBetween("<faultstring>", "</faultstring>", 200);
                return Verdict.fail(ErrorKind.FAULT, reason == null ? "SOAP fault" : "SOAP fault: " + reason);
            }
            return Verdict.fail(ErrorKind.HTTP_STATUS, "HTTP " + status);
        }
        ClaimsTraffic.Case c = caseOf(request);
        int at = response.indexOf(idMarker, 0);
        if (at < 0) {
            return Verdict.fail(ErrorKind.VALIDATION, "no " + new String(idMarker, StandardCharsets.US_ASCII) + " in the response");
        }
        long echoed = response.decimalAt(at + idMarker.length);
        if (echoed != request.id()) {
            return Verdict.fail(ErrorKind.VALIDATION, echoed == Long.MIN_VALUE ? "the echoed id holds no number"
                    : "echoed id " + echoed + " != id " + request.id());
        }
        for (byte[] marker : c.markers()) {
            if (response.indexOf(marker, at) < 0 && response.indexOf(marker, 0) < 0) {
                return Verdict.fail(ErrorKind.VALIDATION, "the response lacks " + new String(marker, StandardCharsets.UTF_8));
            }
        }
        if (deep) {
            String mismatch = c.expected().mismatch(response.bodyBytes(), request.id());
            if (mismatch != null) {
                return Verdict.fail(ErrorKind.VALIDATION, mismatch);
            }
        }
        return Verdict.OK;
    }
}

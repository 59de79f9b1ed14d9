package perflab.trade.lean.site;

/**
 * A request the site cannot read (a malformed or oversized form or query): answered with its 4xx status and a page
 * that says why, as any refusal. Thrown by a stack's {@link SiteRequest}.
 */
public final class BadRequest extends RuntimeException {
    private final int status;

    public BadRequest(int status, String reason) {
        super(reason, null, false, false); // a refusal of input, not a failure: no stack to record
        this.status = status >= 400 && status <= 499 ? status : 400; // whatever a server's parser said, a 4xx
    }

    public int status() {
        return status;
    }
}

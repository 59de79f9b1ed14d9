package perflab.core.traffic;

/**
 * One client's view of the traffic: what it sends next and how it checks what comes back. A session is
 * used by one connection's event loop only, so it may hold mutable state (cookies, a logged-in user, the
 * step of a multi-step scenario) without locking.
 */
public interface ClientSession {
    /** The next request this client sends. */
    Request next();

    /**
     * Checks a complete response. Must be cheap when {@code deep} is false (status and markers such as the
     * echoed id); {@code deep} asks for a full comparison of the content, done on a sample of responses.
     */
    Verdict check(Request request, ResponseView response, boolean deep);

    /** Told when a request got no response (connect error, timeout, broken connection). */
    default void failed(Request request, ErrorKind kind) {
    }
}

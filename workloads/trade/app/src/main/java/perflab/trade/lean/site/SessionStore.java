package perflab.trade.lean.site;

/** An HTTP session as {@link UserSession} keeps a user in it: the server's own session, whichever server. */
public interface SessionStore {
    /** False once the session is invalidated or expired. */
    boolean valid();

    Object attribute(String name);

    void attribute(String name, Object value);

    void invalidate();
}

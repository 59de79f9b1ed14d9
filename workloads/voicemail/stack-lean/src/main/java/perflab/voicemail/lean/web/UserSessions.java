package perflab.voicemail.lean.web;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The application sessions, one per user from the page to the end of the call: the web half of the study's
 * converged application session (the SIP half, the user's three SIP sessions, is the SIP side's, keyed by the same
 * user). A session ends when the user's calls end, whoever ended them, or when its HTTP session expires unused.
 */
final class UserSessions {
    /** Where a user is. */
    enum State { PAGE, CONNECTING, IN_CALL, HANGING_UP }

    /** One user's application session; its state changes under its own lock. */
    static final class UserSession {
        final String user;
        final String httpSessionId;
        /** Ends the HTTP session with the application session. */
        final Runnable invalidateHttp;
        private State state = State.PAGE;

        UserSession(String user, String httpSessionId, Runnable invalidateHttp) {
            this.user = user;
            this.httpSessionId = httpSessionId;
            this.invalidateHttp = invalidateHttp;
        }

        /** Moves from {@code from} to {@code to}; false (and no change) when the session is elsewhere. */
        synchronized boolean move(State from, State to) {
            if (state != from) {
                return false;
            }
            state = to;
            return true;
        }

        synchronized State state() {
            return state;
        }
    }

    private final Map<String, UserSession> byUser = new ConcurrentHashMap<>();

    /** The user's session, a new one for this HTTP session unless the user's current one is in a call. */
    UserSession open(String user, String httpSessionId, Runnable invalidateHttp) {
        return byUser.compute(user, (u, old) -> old != null && old.state() != State.PAGE
                ? old : new UserSession(u, httpSessionId, invalidateHttp));
    }

    /** The user's session if it belongs to this HTTP session; null otherwise. */
    UserSession find(String user, String httpSessionId) {
        UserSession s = byUser.get(user);
        return s != null && s.httpSessionId.equals(httpSessionId) ? s : null;
    }

    /** Ends the session and its HTTP session, if it is still the user's. */
    void end(UserSession session) {
        if (byUser.remove(session.user, session)) {
            session.invalidateHttp.run();
        }
    }

    int live() {
        return byUser.size();
    }
}

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

    /** One user's application session; its state and HTTP session change under its own lock. */
    static final class UserSession {
        final String user;
        private String httpSessionId;
        /** Ends the HTTP session with the application session. */
        private Runnable invalidateHttp;
        private State state;

        UserSession(String user, String httpSessionId, Runnable invalidateHttp) {
            this(user, httpSessionId, invalidateHttp, State.PAGE);
        }

        private UserSession(String user, String httpSessionId, Runnable invalidateHttp, State state) {
            this.user = user;
            this.httpSessionId = httpSessionId;
            this.invalidateHttp = invalidateHttp;
            this.state = state;
        }

        synchronized String httpSessionId() {
            return httpSessionId;
        }

        /** Moves the session to another HTTP session: a browser whose session lived on a failed instance. */
        synchronized void rebind(String newHttpSessionId, Runnable newInvalidate) {
            httpSessionId = newHttpSessionId;
            invalidateHttp = newInvalidate;
        }

        synchronized void invalidateHttp() {
            invalidateHttp.run();
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
        return s != null && s.httpSessionId().equals(httpSessionId) ? s : null;
    }

    /**
     * A session taken over from a failed partner instance's copy, in {@code state}, still under the HTTP session id
     * the browser holds from the partner (no HTTP session here yet: the browser's next request gets one). Replaces a
     * session of the user's only when that one is on the page.
     */
    UserSession adopt(String user, String partnersHttpSessionId, State state) {
        return byUser.compute(user, (u, old) -> old != null && old.state() != State.PAGE
                ? old : new UserSession(u, partnersHttpSessionId == null ? "" : partnersHttpSessionId, () -> { }, state));
    }

    /** Ends the session and its HTTP session, if it is still the user's. */
    void end(UserSession session) {
        if (byUser.remove(session.user, session)) {
            session.invalidateHttp();
        }
    }

    /** Each user on the page (no call), with the HTTP session id its browser holds. */
    void onPage(java.util.function.BiConsumer<String, String> user) {
        byUser.values().forEach(s -> {
            if (s.state() == State.PAGE) {
                user.accept(s.user, s.httpSessionId());
            }
        });
    }

    int live() {
        return byUser.size();
    }
}

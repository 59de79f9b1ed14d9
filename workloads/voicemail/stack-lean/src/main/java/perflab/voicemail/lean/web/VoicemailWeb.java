package perflab.voicemail.lean.web;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Session;
import org.eclipse.jetty.session.SessionHandler;
import org.eclipse.jetty.util.Callback;
import perflab.voicemail.VoicemailPages;
import perflab.voicemail.lean.ConvergedCalls;
import perflab.voicemail.lean.ConvergedCalls.CallEnd;
import perflab.voicemail.lean.ConvergedCalls.CallFailure;
import perflab.voicemail.lean.replica.ReplicationMode;
import perflab.voicemail.lean.replica.SessionReplicas;
import perflab.voicemail.lean.replica.UserReplica;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;

/**
 * The web side of the converged application: a user's page, the click that connects the phone to the voice mail,
 * the hang-up, and the counters. The click and the hang-up answer when the SIP side is done (asynchronously: no
 * thread waits on SIP). New work is refused at the door when the server is full ({@link Admission}); a hang-up is
 * never refused, so that calls in progress always end.
 */
public final class VoicemailWeb extends Handler.Abstract {
    /** A user id as it goes into SIP URIs: letters, digits, '.', '_', '-' only, so no header can be smuggled in. */
    private static final Pattern USER = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final String USER_ATTRIBUTE = "user";

    private final ConvergedCalls calls;
    private final SessionReplicas replicas;
    private final UserSessions sessions = new UserSessions();
    private final Admission admission;
    private final WebCounters counters = new WebCounters();

    VoicemailWeb(ConvergedCalls calls, SessionReplicas replicas, Admission admission) {
        this.calls = calls;
        this.replicas = replicas;
        // a call taken over from the failed partner (its copy is here): its web half is this side's from now on
        calls.onTakeover((user, partnersHttpSessionId) -> {
            UserSessions.UserSession session = sessions.adopt(user, partnersHttpSessionId, UserSessions.State.IN_CALL);
            return end -> ended(session, end);
        });
        this.admission = admission;
        // the pages' copies written while the dead partner was still in the view may be lost: again (a call's copy
        // is the SIP side's to write)
        replicas.onPartnerLost(() -> sessions.onPage((user, httpSession) -> replicas.write(UserReplica.page(user,
                httpSession), null)));
    }

    /** The pages behind Jetty's HTTP sessions (cookie {@value VoicemailPages#SESSION_COOKIE}). */
    public static SessionHandler withSessions(ConvergedCalls calls, SessionReplicas replicas, int maxSetups, int maxCalls,
                                              int sessionTimeoutSeconds) {
        SessionHandler http = new SessionHandler();
        http.setSessionCookie(VoicemailPages.SESSION_COOKIE);
        http.setMaxInactiveInterval(sessionTimeoutSeconds);
        http.setHttpOnly(true);
        http.setHandler(new VoicemailWeb(calls, replicas, new Admission(maxSetups, maxCalls, calls::liveUsers)));
        return http;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = Request.getPathInContext(request);
        if (!HttpMethod.GET.is(request.getMethod())) {
            Pages.problem(response, callback, 405, "only GET is served here");
            return true;
        }
        if (path.equals(VoicemailPages.STATS)) {
            Pages.json(response, callback, counters.json(sessions.live(), calls.liveUsers(), admission.settingUp(), calls.counters(),
                    calls.latencies()));
            return true;
        }
        if (path.equals(VoicemailPages.BASE) || path.equals(VoicemailPages.BASE + "/")) {
            Pages.html(response, callback, 200, Pages.index());
            return true;
        }
        if (!path.startsWith(VoicemailPages.USERS)) {
            Pages.problem(response, callback, 404, "no such page");
            return true;
        }
        String rest = path.substring(VoicemailPages.USERS.length());
        int slash = rest.indexOf('/');
        String user = slash < 0 ? rest : rest.substring(0, slash);
        String action = slash < 0 ? "" : rest.substring(slash);
        if (!USER.matcher(user).matches()) {
            Pages.problem(response, callback, 400, "a user id is 1-64 letters, digits, '.', '_' or '-'");
            return true;
        }
        switch (action) {
            case "" -> page(request, response, callback, user);
            case VoicemailPages.CHECK -> check(request, response, callback, user);
            case VoicemailPages.HANGUP -> hangUp(request, response, callback, user);
            default -> Pages.problem(response, callback, 404, "no such page");
        }
        return true;
    }

    private void page(Request request, Response response, Callback callback, String user) {
        Session http = request.getSession(true);
        http.setAttribute(USER_ATTRIBUTE, user);
        UserSessions.UserSession session = sessions.open(user, http.getId(), http::invalidate);
        if (session.state() == UserSessions.State.PAGE && replicas.writesAt(ReplicationMode.Moment.SERVICE_END)) {
            // the page's service is done: the partner knows this browser (a user in a call keeps the call's copy)
            replicas.write(UserReplica.page(user, session.httpSessionId()), ReplicationMode.Moment.SERVICE_END);
        }
        counters.pages.increment();
        Pages.html(response, callback, 200, Pages.user(user, session.state() != UserSessions.State.PAGE));
    }

    /** The user's application session for this request's HTTP session, or null with a 403 sent. */
    private UserSessions.UserSession owned(Request request, Response response, Callback callback, String user) {
        Session http = request.getSession(false);
        UserSessions.UserSession session = http == null || !user.equals(http.getAttribute(USER_ATTRIBUTE)) ? null
                : sessions.find(user, http.getId());
        if (session == null && http == null) {
            session = takenOver(request, user);
        }
        if (session == null) {
            counters.forbidden.increment();
            Pages.problem(response, callback, 403, "open the user's page first: this is not its session");
        }
        return session;
    }

    /**
     * A browser whose session lived on the failed partner instance: its cookie names an HTTP session this instance
     * does not have. When this instance holds the user's copy under that session id, the session goes on here (the
     * call taken over, or the page the user was on), bound to a new HTTP session whose cookie this answer sets.
     * Null when there is no such copy.
     */
    private UserSessions.UserSession takenOver(Request request, String user) {
        String partners = sessionId(request);
        if (partners == null) {
            return null;
        }
        calls.takeOver(user); // a call in the copy: its web half comes through onTakeover
        UserSessions.UserSession session = sessions.find(user, partners);
        if (session == null) {
            UserReplica copy = replicas.read(user);
            if (copy == null || !copy.state().equals(UserReplica.PAGE) || !partners.equals(copy.webSession())) {
                return null;
            }
            session = sessions.adopt(user, partners, UserSessions.State.PAGE);
            if (!session.httpSessionId().equals(partners)) {
                return null; // the user has another session here already
            }
        }
        Session fresh = request.getSession(true);
        fresh.setAttribute(USER_ATTRIBUTE, user);
        session.rebind(fresh.getId(), fresh::invalidate);
        // the copy follows the browser to its new session, so that the member it goes to next (its home, back after
        // a failure) finds it under the cookie the browser holds then
        if (session.state() == UserSessions.State.PAGE) {
            replicas.write(UserReplica.page(user, fresh.getId()), null);
        }
        calls.webSessionMoved(user, fresh.getId());
        if (replicas.rejoined()) {
            counters.takenBack.increment();
            counters.firstTakenBack.mark();
        } else {
            counters.takenOver.increment();
            counters.firstTakenOver.mark();
        }
        return session;
    }

    /** The HTTP session id the request's cookie names, without Jetty's worker suffix ({@code .node0}); null: none. */
    private static String sessionId(Request request) {
        for (org.eclipse.jetty.http.HttpCookie cookie : Request.getCookies(request)) {
            if (cookie.getName().equals(VoicemailPages.SESSION_COOKIE)) {
                String value = cookie.getValue();
                int dot = value.lastIndexOf('.');
                return dot > 0 ? value.substring(0, dot) : value;
            }
        }
        return null;
    }

    private void check(Request request, Response response, Callback callback, String user) {
        // no HTTP session here: the browser's session lived on the partner, and this click may be one it had sent
        // there, resent by the proxy when the partner died (its set-up or its answer lost with it)
        boolean movedHere = request.getSession(false) == null;
        UserSessions.UserSession session = owned(request, response, callback, user);
        if (session == null) {
            return;
        }
        if (session.state() == UserSessions.State.CONNECTING || (movedHere && session.state() == UserSessions.State.IN_CALL)) {
            CompletableFuture<Void> call = calls.setUp(user);
            if (call != null) {
                clickAgain(response, callback, user, call);
                return;
            }
        }
        if (!admission.tryAdmit()) {
            counters.refused.increment();
            response.getHeaders().put(HttpHeader.RETRY_AFTER, Integer.toString(VoicemailPages.RETRY_AFTER_SECONDS));
            Pages.problem(response, callback, 503, "the voice mail is busy: try again in a few seconds");
            return;
        }
        if (!session.move(UserSessions.State.PAGE, UserSessions.State.CONNECTING)) {
            admission.setupDone();
            Pages.problem(response, callback, 409, "this user is already in a call");
            return;
        }
        counters.clicks.increment();
        calls.connect(user, session.httpSessionId(), end -> ended(session, end)).whenComplete((ok, failure) -> {
            admission.setupDone();
            if (failure == null) {
                session.move(UserSessions.State.CONNECTING, UserSessions.State.IN_CALL);
                Pages.html(response, callback, 200, Pages.call(user, true));
                return;
            }
            String reason = reason(failure);
            counters.setupFailed(reason);
            sessions.end(session);
            Pages.problem(response, callback, 502, "the call could not be set up: " + reason);
        });
    }

    /**
     * The same click again (an idempotent GET a proxy may resend): answered as the first would have been, when the
     * user's call is up or its set-up failed, without starting a second call. The call's start and end are counted
     * where it was set up or taken over, not here.
     */
    private void clickAgain(Response response, Callback callback, String user, CompletableFuture<Void> call) {
        counters.clicksAgain.increment();
        call.whenComplete((ok, failure) -> {
            if (failure == null) {
                Pages.html(response, callback, 200, Pages.call(user, true));
            } else {
                Pages.problem(response, callback, 502, "the call could not be set up: " + reason(failure));
            }
        });
    }

    private void hangUp(Request request, Response response, Callback callback, String user) {
        UserSessions.UserSession session = owned(request, response, callback, user);
        if (session == null) {
            return;
        }
        if (!session.move(UserSessions.State.IN_CALL, UserSessions.State.HANGING_UP)) {
            Pages.problem(response, callback, 409, "this user has no call to hang up");
            return;
        }
        calls.hangUp(user).whenComplete((ok, failure) -> {
            if (failure == null) {
                Pages.html(response, callback, 200, Pages.call(user, false));
                return;
            }
            String reason = reason(failure);
            counters.hangupFailed(reason);
            Pages.problem(response, callback, reason.equals("no-call") ? 409 : 502, "the hang-up failed: " + reason);
        });
    }

    /**
     * The user's calls are over: one converged operation, whoever ended it; or the call went back to the user's home
     * instance ({@link CallEnd#HANDED_BACK}), where it goes on: the session ends here, no operation counted.
     */
    private void ended(UserSessions.UserSession session, CallEnd end) {
        if (end == CallEnd.HANDED_BACK) {
            counters.handedBack.increment();
        } else {
            counters.ended(end);
        }
        sessions.end(session);
    }

    private static String reason(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof CallFailure f ? f.reason() : "internal-error";
    }
}

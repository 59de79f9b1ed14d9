package perflab.trade.lean.web;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Session;
import perflab.trade.lean.Order;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * A logged-in user's request as the pages see it: what the brokerage keeps in the HTTP session, the user id
 * (DayTrader's {@code uidBean}) and the session's CSRF token, which every state-changing form carries back; and the
 * closed-order alerts this request's page shows. A session exists only while a user is logged in: the login and
 * register pages create none, so an anonymous visitor costs the server no memory.
 */
final class WebSession {
    private static final String USER = "perflab.trade.user";
    private static final String TOKEN = "perflab.trade.csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Session session;
    private final String userId;
    private final String token;
    /** The closed-order alerts of this request's page; taken once per request. */
    private List<Order> alerts = List.of();

    private WebSession(Session session, String userId, String token) {
        this.session = session;
        this.userId = userId;
        this.token = token;
    }

    /** The logged-in user's session, or null when the request has none (or one without a user). */
    static WebSession of(Request request) {
        Session session = request.getSession(false);
        if (session == null || !session.isValid()) {
            return null;
        }
        Object user = session.getAttribute(USER);
        Object token = session.getAttribute(TOKEN);
        return user instanceof String u && token instanceof String t ? new WebSession(session, u, t) : null;
    }

    /**
     * Logs {@code userId} in: a session with a new id (an id the browser had before login is never the logged-in
     * one, so a planted id gains nothing) and a fresh CSRF token.
     */
    static WebSession start(Request request, Response response, String userId) {
        Session session = request.getSession(false);
        if (session != null && session.isValid()) {
            session.renewId(request, response);
            session.clearAttributes();
        } else {
            session = request.getSession(true);
        }
        String token = newToken();
        session.setAttribute(USER, userId);
        session.setAttribute(TOKEN, token);
        return new WebSession(session, userId, token);
    }

    String userId() {
        return userId;
    }

    String token() {
        return token;
    }

    /** Whether a form's token is this session's, compared in constant time (no timing hint to a guesser). */
    boolean accepts(String formToken) {
        return formToken != null && MessageDigest.isEqual(token.getBytes(StandardCharsets.US_ASCII),
                formToken.getBytes(StandardCharsets.UTF_8));
    }

    List<Order> alerts() {
        return alerts;
    }

    void alerts(List<Order> taken) {
        alerts = List.copyOf(taken);
    }

    void end() {
        if (session.isValid()) {
            session.invalidate();
        }
    }

    /** 128 random bits, URL-safe: a token needs no escaping in a form or a page. */
    private static String newToken() {
        byte[] bits = new byte[16];
        RANDOM.nextBytes(bits);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
    }
}

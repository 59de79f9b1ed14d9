package perflab.trade.lean.site;

import perflab.trade.lean.Order;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

/**
 * A logged-in user's request as the pages see it: what the brokerage keeps in the HTTP session, the user id
 * (DayTrader's {@code uidBean}) and the session's CSRF token, which every state-changing form carries back; and the
 * closed-order alerts this request's page shows. A session exists only while a user is logged in: the login and
 * register pages create none, so an anonymous visitor costs the server no memory.
 */
public final class UserSession {
    private static final String USER = "perflab.trade.user";
    private static final String TOKEN = "perflab.trade.csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SessionStore session;
    private final String userId;
    private final String token;
    /** The closed-order alerts of this request's page; taken once per request. */
    private List<Order> alerts = List.of();

    private UserSession(SessionStore session, String userId, String token) {
        this.session = session;
        this.userId = userId;
        this.token = token;
    }

    /** The logged-in user's session, or null when the request has none (or one without a user). */
    static UserSession of(SiteRequest request) {
        SessionStore session = request.session();
        if (session == null || !session.valid()) {
            return null;
        }
        Object user = session.attribute(USER);
        Object token = session.attribute(TOKEN);
        return user instanceof String u && token instanceof String t ? new UserSession(session, u, t) : null;
    }

    /** Logs {@code userId} in: a session with a new id ({@link SiteRequest#loginSession()}) and a fresh CSRF token. */
    static UserSession start(SiteRequest request, String userId) {
        SessionStore session = request.loginSession();
        String token = newToken();
        session.attribute(USER, userId);
        session.attribute(TOKEN, token);
        return new UserSession(session, userId, token);
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
        if (session.valid()) {
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

package perflab.trade.lean.web;

import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.FormFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Session;
import org.eclipse.jetty.session.SessionHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.site.BadRequest;
import perflab.trade.lean.site.SessionStore;
import perflab.trade.lean.site.SiteRequest;
import perflab.trade.lean.site.TradeSite;

/**
 * The brokerage's site ({@link TradeSite}: its pages and the rules they share) on Jetty's core handlers, rendered
 * with precompiled JTE templates ({@link PageWriter}). No servlet layer: this is the lean stack's part of the
 * lean-against-container comparison (the liberty stack serves the same site from servlets and Jakarta Pages).
 * Runs blocking on the server's pool threads, as a servlet would: every page waits for the database.
 */
public final class TradeWeb extends Handler.Abstract {
    private final TradeSite site;
    private final PageWriter out = new PageWriter();

    public TradeWeb(TradeService trade) {
        this.site = new TradeSite(trade);
    }

    /**
     * The site as a server runs it: these pages behind Jetty's sessions, a logged-in session that nobody uses
     * expiring after {@code sessionTimeoutSeconds}, its cookie HttpOnly and SameSite=Lax (a cross-site form post
     * carries no session: a second guard beside the CSRF token).
     */
    public static SessionHandler withSessions(TradeService trade, int sessionTimeoutSeconds) {
        SessionHandler sessions = new SessionHandler();
        sessions.setMaxInactiveInterval(sessionTimeoutSeconds);
        sessions.setHttpOnly(true);
        sessions.setSameSite(HttpCookie.SameSite.LAX);
        sessions.setHandler(new TradeWeb(trade));
        return sessions;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        out.send(request, response, callback, site.answer(new JettySiteRequest(request, response)));
        return true;
    }

    /** A Jetty request as the site reads it. */
    private record JettySiteRequest(Request request, Response response) implements SiteRequest {
        @Override
        public String method() {
            return request.getMethod();
        }

        @Override
        public String path() {
            return Request.getPathInContext(request);
        }

        @Override
        public String queryParameter(String name) {
            try {
                return Request.extractQueryParameters(request).getValue(name);
            } catch (BadMessageException bad) {
                throw new BadRequest(bad.getCode(), String.valueOf(bad.getReason()));
            } catch (IllegalArgumentException bad) { // Jetty's decoder on a malformed %-escape
                throw new BadRequest(400, "a malformed query: " + bad.getMessage());
            }
        }

        @Override
        public String contentType() {
            return request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        }

        @Override
        public Form form(int maxFields, int maxBytes) {
            try {
                Fields fields = FormFields.getFields(request, maxFields, maxBytes);
                return fields::getValue;
            } catch (BadMessageException bad) {
                throw new BadRequest(bad.getCode(), String.valueOf(bad.getReason()));
            } catch (IllegalArgumentException bad) { // Jetty's decoder on a malformed %-escape (it was a 500)
                throw new BadRequest(400, "a malformed form: " + bad.getMessage());
            }
        }

        @Override
        public SessionStore session() {
            Session session = request.getSession(false);
            return session == null ? null : new JettySession(session);
        }

        @Override
        public SessionStore loginSession() {
            Session session = request.getSession(false);
            if (session != null && session.isValid()) {
                session.renewId(request, response);
                session.clearAttributes();
            } else {
                session = request.getSession(true);
            }
            return new JettySession(session);
        }

        @Override
        public boolean fromThisMachine() {
            return SiteRequest.loopback(request.getConnectionMetaData().getRemoteSocketAddress());
        }
    }

    private record JettySession(Session session) implements SessionStore {
        @Override
        public boolean valid() {
            return session.isValid();
        }

        @Override
        public Object attribute(String name) {
            return session.getAttribute(name);
        }

        @Override
        public void attribute(String name, Object value) {
            session.setAttribute(name, value);
        }

        @Override
        public void invalidate() {
            session.invalidate();
        }
    }
}

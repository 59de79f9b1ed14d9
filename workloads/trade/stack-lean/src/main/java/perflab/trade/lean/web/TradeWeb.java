package perflab.trade.lean.web;

import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.FormFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.session.SessionHandler;
import org.eclipse.jetty.util.Fields;
import perflab.trade.contract.TradePages;
import perflab.trade.lean.DatabaseFailure;
import perflab.trade.lean.TradeRefusal;
import perflab.trade.lean.TradeService;

/**
 * The brokerage's front door: routes each path of the contract ({@link TradePages}) to its {@link PageActions}
 * and applies the rules every page shares.
 * <ul>
 *   <li>A user's page without a logged-in session: 303 to the login page.</li>
 *   <li>A state-changing POST of a logged-in user without the session's CSRF token: 403, nothing done.</li>
 *   <li>A refusal ({@link TradeRefusal}: bad input, someone else's holding, a taken user id): its 4xx with a page
 *       that says why. A database that does not answer: 503 with a page that says so, and the next request tries
 *       it again (the pool reconnects by itself). Neither shows a stack trace.</li>
 *   <li>Forms are read with bounded size and field count; anything else: 400 or 413.</li>
 * </ul>
 * Runs blocking on the server's pool threads, as a servlet would: every page waits for the database.
 */
public final class TradeWeb extends Handler.Abstract {
    /** The largest form a page takes; the register form, the largest, is far below it. */
    static final int MAX_FORM_BYTES = 16 * 1024;
    static final int MAX_FORM_FIELDS = 32;

    private final PageActions pages;
    private final AdminAudit audit;

    public TradeWeb(TradeService trade) {
        PageWriter out = new PageWriter();
        this.pages = new PageActions(trade, out);
        this.audit = new AdminAudit(trade, out);
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
        String path = Request.getPathInContext(request);
        boolean post = HttpMethod.POST.is(request.getMethod());
        boolean get = HttpMethod.GET.is(request.getMethod()) || HttpMethod.HEAD.is(request.getMethod());
        WebSession session = null;
        try {
            if (path.startsWith(TradePages.REST_QUOTES) && get) {
                pages.restQuotes(response, callback, path.substring(TradePages.REST_QUOTES.length()));
                return true;
            }
            if (path.equals(AdminAudit.PATH) && get) {
                audit.handle(request, response, callback);
                return true;
            }
            if (!get && !post) {
                pages.problem(response, callback, null, 405, "Method not allowed", request.getMethod()
                        + " is not a method of this site");
                return true;
            }
            switch (path) {
                case "/", "" -> {
                    pages.root(request, response, callback);
                    return true;
                }
                case TradePages.LOGIN -> {
                    if (post) {
                        pages.login(request, response, callback, form(request));
                    } else {
                        pages.loginForm(response, callback);
                    }
                    return true;
                }
                case TradePages.REGISTER -> {
                    if (post) {
                        pages.register(request, response, callback, form(request));
                    } else {
                        pages.registerForm(response, callback);
                    }
                    return true;
                }
                default -> {
                    // the user's pages, below
                }
            }
            if (!isUserPage(path)) {
                pages.problem(response, callback, WebSession.of(request), 404, "Not found", "there is no page " + path);
                return true;
            }
            session = WebSession.of(request);
            if (session == null) {
                pages.seeLogin(request, response, callback);
                return true;
            }
            if (post) {
                Fields form = form(request);
                if (!session.accepts(form.getValue(TradePages.CSRF))) {
                    pages.problem(response, callback, session, 403, "Forbidden",
                            "this form did not come from your session's pages; nothing was done");
                    return true;
                }
                pages.takeAlerts(session);
                userPost(path, request, response, callback, session, form);
            } else {
                pages.takeAlerts(session);
                userGet(path, request, response, callback, session);
            }
        } catch (TradeRefusal refusal) {
            pages.problem(response, callback, session, refusal.reason().httpStatus(), "Not done", refusal.getMessage());
        } catch (DatabaseFailure failure) {
            pages.problem(response, callback, session, 503, "Try again",
                    "the database is not answering; nothing was done (" + failure.getMessage() + ")");
        } catch (BadMessageException bad) {
            pages.problem(response, callback, session, bad.getCode(), "Bad request", String.valueOf(bad.getReason()));
        }
        return true;
    }

    private void userGet(String path, Request request, Response response, Callback callback, WebSession session) {
        switch (path) {
            case TradePages.HOME -> pages.home(response, callback, session);
            case TradePages.ACCOUNT -> pages.account(response, callback, session);
            case TradePages.PORTFOLIO -> pages.portfolio(response, callback, session);
            case TradePages.QUOTES -> pages.quotes(response, callback, session, Request.extractQueryParameters(request));
            default -> pages.problem(response, callback, session, 405, "Method not allowed", path + " takes a form (POST)");
        }
    }

    private void userPost(String path, Request request, Response response, Callback callback, WebSession session,
                          Fields form) {
        switch (path) {
            case TradePages.LOGOUT -> pages.logout(request, response, callback, session);
            case TradePages.ACCOUNT -> pages.updateProfile(response, callback, session, form);
            case TradePages.BUY -> pages.buy(response, callback, session, form);
            case TradePages.SELL -> pages.sell(response, callback, session, form);
            default -> pages.problem(response, callback, session, 405, "Method not allowed", path + " is a page to GET");
        }
    }

    private static boolean isUserPage(String path) {
        return switch (path) {
            case TradePages.LOGOUT, TradePages.HOME, TradePages.ACCOUNT, TradePages.PORTFOLIO, TradePages.QUOTES,
                    TradePages.BUY, TradePages.SELL -> true;
            default -> false;
        };
    }

    /** A POST's form fields, url-encoded, bounded in size and count (a larger form: 413 / 400 from Jetty). */
    private static Fields form(Request request) {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            throw new TradeRefusal(TradeRefusal.Reason.BAD_INPUT, "a form must be sent as application/x-www-form-urlencoded");
        }
        return FormFields.getFields(request, MAX_FORM_FIELDS, MAX_FORM_BYTES);
    }
}

package perflab.trade.lean.site;

import perflab.trade.contract.TradePages;
import perflab.trade.lean.AuditReport;
import perflab.trade.lean.DatabaseFailure;
import perflab.trade.lean.TradeRefusal;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.web.JsonText;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Semaphore;

/**
 * The brokerage's site, whatever server carries it: routes each path of the contract ({@link TradePages}) to its
 * page and applies the rules every page shares.
 * <ul>
 *   <li>A user's page without a logged-in session: 303 to the login page.</li>
 *   <li>A state-changing POST of a logged-in user without the session's CSRF token: 403, nothing done.</li>
 *   <li>A refusal ({@link TradeRefusal}: bad input, someone else's holding, a taken user id): its 4xx with a page
 *       that says why. A database that does not answer: 503 with a page that says so, and the next request tries
 *       it again (the pool reconnects by itself). Neither shows a stack trace.</li>
 *   <li>Forms are read with bounded size and field count; anything else: 400 or 413 ({@link BadRequest}).</li>
 *   <li>{@code GET /admin/audit}: the consistency audit perflab asks for after every run, once the load has stopped
 *       ({@link TradeService#audit()}): asynchronous completions drained first, then every account checked. An
 *       audit reads every table, so only a client on this machine may ask, and one at a time (a second gets 429).</li>
 * </ul>
 * Runs blocking on the server's request threads, as a servlet does: every page waits for the database.
 */
public final class TradeSite {
    /** The largest form a page takes; the register form, the largest, is far below it. */
    public static final int MAX_FORM_BYTES = 16 * 1024;
    public static final int MAX_FORM_FIELDS = 32;
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(60);

    private final TradeService trade;
    private final SitePages pages;
    private final Semaphore oneAuditAtATime = new Semaphore(1);

    public TradeSite(TradeService trade) {
        this.trade = trade;
        this.pages = new SitePages(trade);
    }

    /** The answer to {@code request}; never throws for bad input or a database that is away. */
    public Answer answer(SiteRequest request) {
        String path = request.path();
        String method = request.method();
        boolean post = method.equals("POST");
        boolean get = method.equals("GET") || method.equals("HEAD");
        UserSession session = null;
        try {
            if (path.startsWith(TradePages.REST_QUOTES) && get) {
                return pages.restQuotes(path.substring(TradePages.REST_QUOTES.length()));
            }
            if (path.equals(TradePages.ADMIN_AUDIT) && get) {
                return audit(request);
            }
            if (!get && !post) {
                return pages.problem(null, 405, "Method not allowed", method + " is not a method of this site");
            }
            switch (path) {
                case "/", "" -> {
                    return pages.root(request);
                }
                case TradePages.LOGIN -> {
                    return post ? pages.login(request, form(request)) : pages.loginForm();
                }
                case TradePages.REGISTER -> {
                    return post ? pages.register(request, form(request)) : pages.registerForm();
                }
                default -> {
                    // the user's pages, below
                }
            }
            if (!isUserPage(path)) {
                return pages.problem(UserSession.of(request), 404, "Not found", "there is no page " + path);
            }
            session = UserSession.of(request);
            if (session == null) {
                return pages.seeLogin();
            }
            if (post) {
                SiteRequest.Form form = form(request);
                if (!session.accepts(form.value(TradePages.CSRF))) {
                    return pages.problem(session, 403, "Forbidden",
                            "this form did not come from your session's pages; nothing was done");
                }
                pages.takeAlerts(session);
                return userPost(path, session, form);
            }
            pages.takeAlerts(session);
            return userGet(path, request, session);
        } catch (TradeRefusal refusal) {
            return pages.problem(session, refusal.reason().httpStatus(), "Not done", refusal.getMessage());
        } catch (DatabaseFailure failure) {
            return pages.problem(session, 503, "Try again",
                    "the database is not answering; nothing was done (" + failure.getMessage() + ")");
        } catch (BadRequest bad) {
            return pages.problem(session, bad.status(), "Bad request", String.valueOf(bad.getMessage()));
        }
    }

    private Answer userGet(String path, SiteRequest request, UserSession session) {
        return switch (path) {
            case TradePages.HOME -> pages.home(session);
            case TradePages.ACCOUNT -> pages.account(session);
            case TradePages.PORTFOLIO -> pages.portfolio(session);
            case TradePages.QUOTES -> pages.quotes(session, request.queryParameter(TradePages.SYMBOLS));
            default -> pages.problem(session, 405, "Method not allowed", path + " takes a form (POST)");
        };
    }

    private Answer userPost(String path, UserSession session, SiteRequest.Form form) {
        return switch (path) {
            case TradePages.LOGOUT -> pages.logout(session);
            case TradePages.ACCOUNT -> pages.updateProfile(session, form);
            case TradePages.BUY -> pages.buy(session, form);
            case TradePages.SELL -> pages.sell(session, form);
            default -> pages.problem(session, 405, "Method not allowed", path + " is a page to GET");
        };
    }

    private static boolean isUserPage(String path) {
        return switch (path) {
            case TradePages.LOGOUT, TradePages.HOME, TradePages.ACCOUNT, TradePages.PORTFOLIO, TradePages.QUOTES,
                    TradePages.BUY, TradePages.SELL -> true;
            default -> false;
        };
    }

    /** A POST's form fields, url-encoded, bounded in size and count. */
    private static SiteRequest.Form form(SiteRequest request) {
        String type = request.contentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            throw new TradeRefusal(TradeRefusal.Reason.BAD_INPUT, "a form must be sent as application/x-www-form-urlencoded");
        }
        return request.form(MAX_FORM_FIELDS, MAX_FORM_BYTES);
    }

    private Answer audit(SiteRequest request) {
        if (!request.fromThisMachine()) {
            return new Answer.Text(403, "the audit is answered to this machine only");
        }
        if (!oneAuditAtATime.tryAcquire()) {
            return new Answer.Text(429, "an audit is running; ask again when it has answered");
        }
        try {
            boolean drained = trade.awaitCompletions(DRAIN_LIMIT);
            AuditReport report = trade.audit();
            StringBuilder json = new StringBuilder("{\"drained\":").append(drained)
                    .append(",\"accountsChecked\":").append(report.accountsChecked())
                    .append(",\"violationCount\":").append(report.violationCount())
                    .append(",\"firstViolations\":[");
            for (int i = 0; i < report.firstViolations().size(); i++) {
                JsonText.string(json.append(i > 0 ? "," : ""), report.firstViolations().get(i));
            }
            return new Answer.Json(json.append("]}").toString());
        } finally {
            oneAuditAtATime.release();
        }
    }
}

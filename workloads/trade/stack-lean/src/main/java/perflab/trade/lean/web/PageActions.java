package perflab.trade.lean.web;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import perflab.trade.contract.TradePages;
import perflab.trade.lean.Account;
import perflab.trade.lean.Order;
import perflab.trade.lean.Profile;
import perflab.trade.lean.Quote;
import perflab.trade.lean.TradeInput;
import perflab.trade.lean.TradeRefusal;
import perflab.trade.lean.TradeService;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each page does (DayTrader's TradeAppServlet actions): ask the {@link TradeService}, render the page. The
 * gates every page shares (a session, the CSRF token, refusals and failures) are {@link TradeWeb}'s; here a user's
 * page is given the user's session, already checked.
 */
final class PageActions {
    /** The symbols a quotes page shows when none are asked for (DayTrader's default list). */
    static final String DEFAULT_SYMBOLS = "s:0,s:1,s:2,s:3,s:4";
    /** The register form's fields a refused registration shows again; never the passwords. */
    private static final List<String> REGISTER_ECHO = List.of(TradePages.USER_ID, TradePages.FULL_NAME,
            TradePages.ADDRESS, TradePages.EMAIL, TradePages.CREDIT_CARD, TradePages.OPENING_BALANCE);

    private final TradeService trade;
    private final PageWriter out;

    PageActions(TradeService trade, PageWriter out) {
        this.trade = trade;
        this.out = out;
    }

    // --- anonymous pages ---

    /** The site's root: the home page of a logged-in user, else the login form. */
    void root(Request request, Response response, Callback callback) {
        out.seeOther(request, response, callback, WebSession.of(request) == null ? TradePages.LOGIN : TradePages.HOME);
    }

    /** A user's page asked for without a logged-in session. */
    void seeLogin(Request request, Response response, Callback callback) {
        out.seeOther(request, response, callback, TradePages.LOGIN);
    }

    void loginForm(Response response, Callback callback) {
        loginPage(response, callback, null, "");
    }

    /** A wrong user id or password shows the form again with a message, and starts no session. */
    void login(Request request, Response response, Callback callback, Fields form) {
        String userId = form.getValue(TradePages.USER_ID);
        String password = form.getValue(TradePages.PASSWORD);
        if (trade.login(userId, password).isEmpty()) {
            loginPage(response, callback, "Wrong user id or password.", userId == null ? "" : userId);
            return;
        }
        WebSession.start(request, response, userId);
        out.seeOther(request, response, callback, TradePages.HOME);
    }

    private void loginPage(Response response, Callback callback, String error, String userId) {
        out.page(response, callback, 200, "login.jte", Map.of("frame", Frame.anonymous("Log in"),
                "error", error == null ? NO_TEXT : error, "userId", userId));
    }

    void registerForm(Response response, Callback callback) {
        registerPage(response, callback, 200, null, Map.of());
    }

    /** A new user, logged in at once (DayTrader's register then login). */
    void register(Request request, Response response, Callback callback, Fields form) {
        String userId = form.getValue(TradePages.USER_ID);
        try {
            String password = TradeInput.checkPassword(form.getValue(TradePages.PASSWORD));
            if (!password.equals(form.getValue(TradePages.CONFIRM_PASSWORD))) {
                throw new TradeRefusal(TradeRefusal.Reason.BAD_INPUT, "the two passwords differ");
            }
            trade.register(userId, password, form.getValue(TradePages.FULL_NAME), form.getValue(TradePages.ADDRESS),
                    form.getValue(TradePages.EMAIL), form.getValue(TradePages.CREDIT_CARD),
                    TradeInput.parseMoney(form.getValue(TradePages.OPENING_BALANCE)));
        } catch (TradeRefusal refusal) {
            Map<String, String> echo = new HashMap<>();
            for (String field : REGISTER_ECHO) {
                String value = form.getValue(field);
                if (value != null) {
                    echo.put(field, value);
                }
            }
            registerPage(response, callback, refusal.reason().httpStatus(), refusal.getMessage(), echo);
            return;
        }
        WebSession.start(request, response, userId);
        out.seeOther(request, response, callback, TradePages.HOME);
    }

    private void registerPage(Response response, Callback callback, int status, String problem, Map<String, String> form) {
        out.page(response, callback, status, "register.jte", Map.of("frame", Frame.anonymous("Register"),
                "problem", problem == null ? NO_TEXT : problem, "form", form));
    }

    /** JTE leaves out an attribute or text whose value is null; an absent message is passed as this and tested. */
    private static final String NO_TEXT = "";

    // --- a user's pages ---

    void logout(Request request, Response response, Callback callback, WebSession session) {
        trade.logout(session.userId());
        session.end();
        out.seeOther(request, response, callback, TradePages.LOGIN);
    }

    void home(Response response, Callback callback, WebSession session) {
        Account account = account(session);
        Map<String, Object> params = page(session, "Home");
        params.put("account", account);
        params.put("portfolio", new Portfolio(trade.holdings(session.userId())));
        params.put("market", trade.marketSummary());
        out.page(response, callback, 200, "home.jte", params);
    }

    void account(Response response, Callback callback, WebSession session) {
        accountPage(response, callback, session, 200, null, false);
    }

    /** DayTrader's update form sends every field, the password twice. */
    void updateProfile(Response response, Callback callback, WebSession session, Fields form) {
        String password = form.getValue(TradePages.PASSWORD);
        if (password == null || !password.equals(form.getValue(TradePages.CONFIRM_PASSWORD))) {
            accountPage(response, callback, session, 400, "the two passwords differ; nothing was changed", false);
            return;
        }
        trade.updateProfile(session.userId(), password, form.getValue(TradePages.FULL_NAME),
                form.getValue(TradePages.ADDRESS), form.getValue(TradePages.EMAIL), form.getValue(TradePages.CREDIT_CARD));
        accountPage(response, callback, session, 200, null, true);
    }

    private void accountPage(Response response, Callback callback, WebSession session, int status, String problem,
                             boolean updated) {
        Account account = account(session);
        Profile profile = trade.profile(session.userId()).orElseThrow(() -> gone(session));
        Map<String, Object> params = page(session, "Account");
        params.put("account", account);
        params.put("profile", profile);
        params.put("problem", problem == null ? NO_TEXT : problem);
        params.put("updated", updated);
        out.page(response, callback, status, "account.jte", params);
    }

    void portfolio(Response response, Callback callback, WebSession session) {
        Map<String, Object> params = page(session, "Portfolio");
        params.put("portfolio", new Portfolio(trade.holdings(session.userId())));
        out.page(response, callback, 200, "portfolio.jte", params);
    }

    void quotes(Response response, Callback callback, WebSession session, Fields query) {
        String asked = query.getValue(TradePages.SYMBOLS);
        List<String> symbols = TradeInput.parseSymbols(asked == null || asked.isBlank() ? DEFAULT_SYMBOLS : asked);
        Map<String, Object> params = page(session, "Quotes");
        params.put("quotes", trade.quotes(symbols));
        params.put("symbols", String.join(",", symbols));
        out.page(response, callback, 200, "quotes.jte", params);
    }

    void buy(Response response, Callback callback, WebSession session, Fields form) {
        orderPage(response, callback, session, trade.buy(session.userId(), form.getValue(TradePages.SYMBOL),
                form.getValue(TradePages.QUANTITY)));
    }

    void sell(Response response, Callback callback, WebSession session, Fields form) {
        orderPage(response, callback, session, trade.sell(session.userId(),
                TradeInput.parseHoldingId(form.getValue(TradePages.HOLDING_ID))));
    }

    private void orderPage(Response response, Callback callback, WebSession session, Order order) {
        Map<String, Object> params = page(session, order.isBuy() ? "Buy" : "Sell");
        params.put("order", order);
        out.page(response, callback, 200, "order.jte", params);
    }

    /** A page that explains a refusal, inside the user's frame when there is a user. */
    void problem(Response response, Callback callback, WebSession session, int status, String title, String problem) {
        Frame frame = session == null ? Frame.anonymous(title)
                : new Frame(title, session.userId(), session.token(), session.alerts());
        out.page(response, callback, status, "problem.jte", Map.of("frame", frame, "problem", problem));
    }

    // --- the JSON API ---

    /** {@code /rest/quotes/s:1,s:2}: the quotes as a JSON array; no session needed (DayTrader's JAX-RS service). */
    void restQuotes(Response response, Callback callback, String symbols) {
        List<Quote> quotes = trade.quotes(TradeInput.parseSymbols(symbols));
        out.json(response, callback, QuotesJson.write(quotes));
    }

    // ---

    /**
     * Before a user's page does anything: the orders completed since the user's last page are taken, to be shown
     * once on this page (DayTrader's OrdersAlertFilter, which asks before every request of a logged-in user, so
     * that a buy's own completion is alerted on the page after its confirmation).
     */
    void takeAlerts(WebSession session) {
        session.alerts(trade.closedOrders(session.userId()));
    }

    /** A user page's parameters, starting with its frame. */
    private Map<String, Object> page(WebSession session, String title) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("frame", new Frame(title, session.userId(), session.token(), session.alerts()));
        return params;
    }

    private Account account(WebSession session) {
        return trade.account(session.userId()).orElseThrow(() -> gone(session));
    }

    private static TradeRefusal gone(WebSession session) {
        return new TradeRefusal(TradeRefusal.Reason.UNKNOWN_USER, "user " + session.userId() + " has no account");
    }
}

package perflab.trade.lean.site;

import perflab.trade.contract.TradePages;
import perflab.trade.lean.Account;
import perflab.trade.lean.Order;
import perflab.trade.lean.Profile;
import perflab.trade.lean.Quote;
import perflab.trade.lean.TradeInput;
import perflab.trade.lean.TradeRefusal;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.web.Frame;
import perflab.trade.lean.web.Portfolio;
import perflab.trade.lean.web.QuotesJson;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each page does (DayTrader's TradeAppServlet actions): ask the {@link TradeService}, answer with the page's
 * view and what it shows. The gates every page shares (a session, the CSRF token, refusals and failures) are
 * {@link TradeSite}'s; here a user's page is given the user's session, already checked.
 */
final class SitePages {
    /** The symbols a quotes page shows when none are asked for (DayTrader's default list). */
    static final String DEFAULT_SYMBOLS = "s:0,s:1,s:2,s:3,s:4";
    /** The register form's fields a refused registration shows again; never the passwords. */
    private static final List<String> REGISTER_ECHO = List.of(TradePages.USER_ID, TradePages.FULL_NAME,
            TradePages.ADDRESS, TradePages.EMAIL, TradePages.CREDIT_CARD, TradePages.OPENING_BALANCE);
    /** A view leaves out a message that is empty; an absent message is passed as this and tested. */
    private static final String NO_TEXT = "";

    private final TradeService trade;

    SitePages(TradeService trade) {
        this.trade = trade;
    }

    // --- anonymous pages ---

    /** The site's root: the home page of a logged-in user, else the login form. */
    Answer root(SiteRequest request) {
        return new Answer.SeeOther(UserSession.of(request) == null ? TradePages.LOGIN : TradePages.HOME);
    }

    /** A user's page asked for without a logged-in session. */
    Answer seeLogin() {
        return new Answer.SeeOther(TradePages.LOGIN);
    }

    Answer loginForm() {
        return loginPage(null, "");
    }

    /** A wrong user id or password shows the form again with a message, and starts no session. */
    Answer login(SiteRequest request, SiteRequest.Form form) {
        String userId = form.value(TradePages.USER_ID);
        String password = form.value(TradePages.PASSWORD);
        if (trade.login(userId, password).isEmpty()) {
            return loginPage("Wrong user id or password.", userId == null ? "" : userId);
        }
        UserSession.start(request, userId);
        return new Answer.SeeOther(TradePages.HOME);
    }

    private Answer loginPage(String error, String userId) {
        return new Answer.Page(200, "login", Map.of("frame", Frame.anonymous("Log in"),
                "error", error == null ? NO_TEXT : error, "userId", userId));
    }

    Answer registerForm() {
        return registerPage(200, null, Map.of());
    }

    /** A new user, logged in at once (DayTrader's register then login). */
    Answer register(SiteRequest request, SiteRequest.Form form) {
        String userId = form.value(TradePages.USER_ID);
        try {
            String password = TradeInput.checkPassword(form.value(TradePages.PASSWORD));
            if (!password.equals(form.value(TradePages.CONFIRM_PASSWORD))) {
                throw new TradeRefusal(TradeRefusal.Reason.BAD_INPUT, "the two passwords differ");
            }
            trade.register(userId, password, form.value(TradePages.FULL_NAME), form.value(TradePages.ADDRESS),
                    form.value(TradePages.EMAIL), form.value(TradePages.CREDIT_CARD),
                    TradeInput.parseMoney(form.value(TradePages.OPENING_BALANCE)));
        } catch (TradeRefusal refusal) {
            Map<String, String> echo = new HashMap<>();
            for (String field : REGISTER_ECHO) {
                String value = form.value(field);
                if (value != null) {
                    echo.put(field, value);
                }
            }
            return registerPage(refusal.reason().httpStatus(), refusal.getMessage(), echo);
        }
        UserSession.start(request, userId);
        return new Answer.SeeOther(TradePages.HOME);
    }

    private Answer registerPage(int status, String problem, Map<String, String> form) {
        return new Answer.Page(status, "register", Map.of("frame", Frame.anonymous("Register"),
                "problem", problem == null ? NO_TEXT : problem, "form", form));
    }

    // --- a user's pages ---

    Answer logout(UserSession session) {
        trade.logout(session.userId());
        session.end();
        return new Answer.SeeOther(TradePages.LOGIN);
    }

    Answer home(UserSession session) {
        Account account = accountOf(session);
        Map<String, Object> model = model(session, "Home");
        model.put("account", account);
        model.put("portfolio", new Portfolio(trade.holdings(session.userId())));
        model.put("market", trade.marketSummary());
        return new Answer.Page(200, "home", model);
    }

    Answer account(UserSession session) {
        return accountPage(session, 200, null, false);
    }

    /** DayTrader's update form sends every field, the password twice. */
    Answer updateProfile(UserSession session, SiteRequest.Form form) {
        String password = form.value(TradePages.PASSWORD);
        if (password == null || !password.equals(form.value(TradePages.CONFIRM_PASSWORD))) {
            return accountPage(session, 400, "the two passwords differ; nothing was changed", false);
        }
        trade.updateProfile(session.userId(), password, form.value(TradePages.FULL_NAME),
                form.value(TradePages.ADDRESS), form.value(TradePages.EMAIL), form.value(TradePages.CREDIT_CARD));
        return accountPage(session, 200, null, true);
    }

    private Answer accountPage(UserSession session, int status, String problem, boolean updated) {
        Account account = accountOf(session);
        Profile profile = trade.profile(session.userId()).orElseThrow(() -> gone(session));
        Map<String, Object> model = model(session, "Account");
        model.put("account", account);
        model.put("profile", profile);
        model.put("problem", problem == null ? NO_TEXT : problem);
        model.put("updated", updated);
        return new Answer.Page(status, "account", model);
    }

    Answer portfolio(UserSession session) {
        Map<String, Object> model = model(session, "Portfolio");
        model.put("portfolio", new Portfolio(trade.holdings(session.userId())));
        return new Answer.Page(200, "portfolio", model);
    }

    Answer quotes(UserSession session, String asked) {
        List<String> symbols = TradeInput.parseSymbols(asked == null || asked.isBlank() ? DEFAULT_SYMBOLS : asked);
        Map<String, Object> model = model(session, "Quotes");
        model.put("quotes", trade.quotes(symbols));
        model.put("symbols", String.join(",", symbols));
        return new Answer.Page(200, "quotes", model);
    }

    Answer buy(UserSession session, SiteRequest.Form form) {
        return orderPage(session, trade.buy(session.userId(), form.value(TradePages.SYMBOL),
                form.value(TradePages.QUANTITY)));
    }

    Answer sell(UserSession session, SiteRequest.Form form) {
        return orderPage(session, trade.sell(session.userId(),
                TradeInput.parseHoldingId(form.value(TradePages.HOLDING_ID))));
    }

    private Answer orderPage(UserSession session, Order order) {
        Map<String, Object> model = model(session, order.isBuy() ? "Buy" : "Sell");
        model.put("order", order);
        return new Answer.Page(200, "order", model);
    }

    /** A page that explains a refusal, inside the user's frame when there is a user. */
    Answer problem(UserSession session, int status, String title, String problem) {
        Frame frame = session == null ? Frame.anonymous(title)
                : new Frame(title, session.userId(), session.token(), session.alerts());
        return new Answer.Page(status, "problem", Map.of("frame", frame, "problem", problem));
    }

    // --- the JSON API ---

    /** {@code /rest/quotes/s:1,s:2}: the quotes as a JSON array; no session needed (DayTrader's JAX-RS service). */
    Answer restQuotes(String symbols) {
        List<Quote> quotes = trade.quotes(TradeInput.parseSymbols(symbols));
        return new Answer.Json(QuotesJson.write(quotes));
    }

    // ---

    /**
     * Before a user's page does anything: the orders completed since the user's last page are taken, to be shown
     * once on this page (DayTrader's OrdersAlertFilter, which asks before every request of a logged-in user, so
     * that a buy's own completion is alerted on the page after its confirmation).
     */
    void takeAlerts(UserSession session) {
        session.alerts(trade.closedOrders(session.userId()));
    }

    /** A user page's model, starting with its frame. */
    private Map<String, Object> model(UserSession session, String title) {
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("frame", new Frame(title, session.userId(), session.token(), session.alerts()));
        return model;
    }

    private Account accountOf(UserSession session) {
        return trade.account(session.userId()).orElseThrow(() -> gone(session));
    }

    private static TradeRefusal gone(UserSession session) {
        return new TradeRefusal(TradeRefusal.Reason.UNKNOWN_USER, "user " + session.userId() + " has no account");
    }
}

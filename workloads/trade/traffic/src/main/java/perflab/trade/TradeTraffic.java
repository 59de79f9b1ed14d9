package perflab.trade;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.Traffic;
import perflab.trade.contract.TradePages;

import java.net.URI;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The brokerage's traffic for one run: one request template per page kind, encoded once, with slots for what
 * varies (the session cookie, the CSRF token, the user, symbols, a holding), and the mix every user follows. Each
 * client gets a {@link TradeSession}.
 */
final class TradeTraffic implements Traffic {
    static final String FORM = "application/x-www-form-urlencoded";
    /** The password and opening balance DayTrader's drivers give a user they register. */
    static final String REGISTERED_PASSWORD = "yyy";
    static final String REGISTERED_BALANCE = "1000000";

    // slot names
    static final String COOKIE = "cookie";
    static final String CSRF = "csrf";
    static final String USER = "uid";
    static final String PASSWORD = "passwd";
    static final String SYMBOLS = "symbols";
    static final String SYMBOL = "symbol";
    static final String QUANTITY = "quantity";
    static final String HOLDING = "holding";

    final TradeMix mix;
    final int users;
    final int quotes;
    /** The application's path prefix ("" at the server's root). */
    final String base;
    /** The path the session's cookies are asked for: the application's root, under which every page lies. */
    final String cookiePath;
    final ClientCount clients = new ClientCount();
    private final Map<PageKind, RequestTemplate> templates = new EnumMap<>(PageKind.class);

    TradeTraffic(TradeMix mix, int users, int quotes, String base) {
        this.mix = mix;
        this.users = users;
        this.quotes = quotes;
        this.base = base;
        this.cookiePath = base + "/";
        String profile = "&" + slot(TradePages.FULL_NAME, RandomProfile.FULL_NAME) + "&"
                + slot(TradePages.ADDRESS, RandomProfile.ADDRESS) + "&" + slot(TradePages.EMAIL, RandomProfile.EMAIL)
                + "&" + slot(TradePages.CREDIT_CARD, RandomProfile.CREDIT_CARD);
        String token = slot(TradePages.CSRF, CSRF) + "&";
        // login and register start a session: no cookie, no token
        form(PageKind.LOGIN, TradePages.LOGIN, false,
                slot(TradePages.USER_ID, USER) + "&" + slot(TradePages.PASSWORD, PASSWORD));
        form(PageKind.REGISTER, TradePages.REGISTER, false, slot(TradePages.USER_ID, USER)
                + "&" + TradePages.PASSWORD + "=" + REGISTERED_PASSWORD
                + "&" + TradePages.CONFIRM_PASSWORD + "=" + REGISTERED_PASSWORD
                + profile + "&" + TradePages.OPENING_BALANCE + "=" + REGISTERED_BALANCE);
        form(PageKind.LOGOUT, TradePages.LOGOUT, true, slot(TradePages.CSRF, CSRF));
        page(PageKind.HOME, TradePages.HOME);
        page(PageKind.ACCOUNT, TradePages.ACCOUNT);
        form(PageKind.UPDATE, TradePages.ACCOUNT, true, token + slot(TradePages.PASSWORD, PASSWORD)
                + "&" + slot(TradePages.CONFIRM_PASSWORD, PASSWORD) + profile);
        page(PageKind.PORTFOLIO, TradePages.PORTFOLIO);
        page(PageKind.QUOTE, TradePages.QUOTES + "?" + slot(TradePages.SYMBOLS, SYMBOLS));
        form(PageKind.BUY, TradePages.BUY, true,
                token + slot(TradePages.SYMBOL, SYMBOL) + "&" + slot(TradePages.QUANTITY, QUANTITY));
        form(PageKind.SELL, TradePages.SELL, true, token + slot(TradePages.HOLDING_ID, HOLDING));
        // the REST service needs no session (DayTrader's JMeter plan calls it without one)
        templates.put(PageKind.REST_QUOTES, RequestTemplate.builder(PageKind.REST_QUOTES.kind, "GET")
                .path(base + TradePages.REST_QUOTES + "${" + SYMBOLS + "}").build());
    }

    /**
     * The application's path prefix from the run's target: empty for a bare host:port or the service path
     * ({@link TradePages#LOGIN}), else the target's path without it ({@code http://host:9080/daytrader}).
     */
    static String basePath(URI target) {
        String path = target.getRawPath();
        if (path == null) {
            return "";
        }
        if (path.endsWith(TradePages.LOGIN)) {
            path = path.substring(0, path.length() - TradePages.LOGIN.length());
        }
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path;
    }

    /** "field=${slot}": a form field or query parameter whose value a session sets per request. */
    private static String slot(String field, String slot) {
        return field + "=${" + slot + "}";
    }

    private void page(PageKind kind, String path) {
        templates.put(kind, RequestTemplate.builder(kind.kind, "GET").path(base + path)
                .header("Cookie", "${" + COOKIE + "}").build());
    }

    private void form(PageKind kind, String path, boolean inSession, String body) {
        RequestTemplate.Builder b = RequestTemplate.builder(kind.kind, "POST").path(base + path)
                .header("Content-Type", FORM);
        if (inSession) {
            b.header("Cookie", "${" + COOKIE + "}");
        }
        templates.put(kind, b.body(body).build());
    }

    RequestTemplate template(PageKind kind) {
        return templates.get(kind);
    }

    @Override
    public ClientSession newSession(ClientContext context) {
        if (context.clientIndex() >= users) {
            throw new IllegalArgumentException(UserDeck.tooFewUsers(context.clientIndex(), users));
        }
        clients.add(context.clientIndex(), context.clientCount());
        return new TradeSession(this, context);
    }

    @Override
    public List<String> requestKinds() {
        return Arrays.stream(PageKind.values()).map(k -> k.kind).toList();
    }
}

package perflab.trade.contract;

/**
 * The brokerage's web interface as the driver and every stack agree on it: each page's path, its form fields and
 * the markers a page carries so that the driver checks it with a byte search instead of parsing HTML. A stack
 * renders these markers exactly; a person sees an ordinary page.
 *
 * <p>Every state-changing request is a POST with the form field {@link #CSRF} holding the token of the session's
 * pages (a request without it, or with another, gets 403). Pages other than login and register need a session
 * (without one: 303 to {@link #LOGIN}).
 */
public final class TradePages {
    private TradePages() {
    }

    // --- paths (GET shows the page; POST acts where noted) ---
    /** GET: the login form; POST uid, passwd: 303 to {@link #HOME} with a new session, or the form with {@link #LOGIN_ERROR}. */
    public static final String LOGIN = "/login";
    /** POST: ends the session, 303 to {@link #LOGIN}. */
    public static final String LOGOUT = "/logout";
    /** GET: the form; POST the {@code REGISTER_*} fields: 303 to {@link #HOME}, logged in as the new user. */
    public static final String REGISTER = "/register";
    /** GET: the account summary and the market summary. */
    public static final String HOME = "/home";
    /** GET: profile and account; POST the {@code PROFILE_*} fields: the page again, updated. */
    public static final String ACCOUNT = "/account";
    /** GET: the user's holdings with a sell form each. */
    public static final String PORTFOLIO = "/portfolio";
    /** GET ?symbols=s:1,s:2 (1-10): a row and a buy form per symbol. */
    public static final String QUOTES = "/quotes";
    /** POST symbol, quantity: the order confirmation. */
    public static final String BUY = "/buy";
    /** POST holdingId: the order confirmation. */
    public static final String SELL = "/sell";
    /** GET /rest/quotes/s:1,s:2: a JSON array of quotes; no session needed. */
    public static final String REST_QUOTES = "/rest/quotes/";
    /**
     * GET, from this machine only: the consistency audit perflab asks for after a run, once asynchronous
     * completions have drained: {@code {"drained":true,"accountsChecked":N,"violationCount":M,"firstViolations":[...]}}.
     */
    public static final String ADMIN_AUDIT = "/admin/audit";

    // --- form fields ---
    public static final String CSRF = "csrf";
    public static final String USER_ID = "uid";
    public static final String PASSWORD = "passwd";
    public static final String CONFIRM_PASSWORD = "confirm";
    public static final String FULL_NAME = "fullname";
    public static final String ADDRESS = "address";
    public static final String EMAIL = "email";
    public static final String CREDIT_CARD = "creditcard";
    /** Register only: the opening balance. */
    public static final String OPENING_BALANCE = "money";
    public static final String SYMBOLS = "symbols";
    public static final String SYMBOL = "symbol";
    public static final String QUANTITY = "quantity";
    public static final String HOLDING_ID = "holdingId";

    /** The session cookie (Jetty's default name). */
    public static final String SESSION_COOKIE = "JSESSIONID";

    // --- markers: exact text a page carries ---
    /** Every page of a logged-in user: {@code <span id="user">uid:7</span>}. */
    public static final String USER_OPEN = "<span id=\"user\">";
    public static final String USER_CLOSE = "</span>";
    /** The CSRF token, in every form: {@code <input type="hidden" name="csrf" value="TOKEN">}. */
    public static final String CSRF_OPEN = "<input type=\"hidden\" name=\"csrf\" value=\"";
    public static final String CSRF_CLOSE = "\"";
    /** Home and account: the cash balance, {@code <td id="balance">123.45</td>}. */
    public static final String BALANCE_OPEN = "<td id=\"balance\">";
    public static final String CELL_CLOSE = "</td>";
    /** Home: the market summary table. */
    public static final String MARKET_SUMMARY = "<table id=\"market-summary\">";
    /** Portfolio: the holdings table (also when empty). */
    public static final String HOLDINGS = "<table id=\"holdings\">";
    /** Portfolio: one per holding, {@code <tr class="holding" data-id="123" data-symbol="s:5">}. */
    public static final String HOLDING_ROW = "<tr class=\"holding\" data-id=\"";
    /** Quotes: one per symbol shown, {@code <tr class="quote" data-symbol="s:5">}. */
    public static final String QUOTE_ROW = "<tr class=\"quote\" data-symbol=\"";
    /** Account: the profile form. */
    public static final String PROFILE = "<form id=\"profile\"";
    /** Buy and sell: the confirmation, {@code <table id="order">} with the cells below. */
    public static final String ORDER = "<table id=\"order\">";
    public static final String ORDER_ID_OPEN = "<td id=\"order-id\">";
    public static final String ORDER_SYMBOL_OPEN = "<td id=\"order-symbol\">";
    public static final String ORDER_QUANTITY_OPEN = "<td id=\"order-quantity\">";
    public static final String ORDER_STATUS_OPEN = "<td id=\"order-status\">";
    /** Orders completed since the user's last page: {@code <div id="alerts">}, shown once. */
    public static final String ALERTS = "<div id=\"alerts\">";
    /** Login form after a wrong user id or password. */
    public static final String LOGIN_ERROR = "<p id=\"login-error\">";
    /** A 4xx page's explanation, {@code <p id="problem">...</p>}. */
    public static final String PROBLEM = "<p id=\"problem\">";
}

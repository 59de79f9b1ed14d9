package perflab.trade;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.CookieJar;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.HtmlExtract;
import perflab.core.traffic.Request;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.UrlEncoding;
import perflab.core.traffic.Verdict;
import perflab.trade.contract.TradePages;
import perflab.trade.contract.TradeRules;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

/**
 * One client of the brokerage: a person at a browser, one user at a time.
 *
 * <ul>
 *   <li>Users: the client logs in as the next user of its own share of the population ({@link UserDeck}: client i
 *       of n takes users i, i+n, i+2n, ...), through the login form, with a fresh cookie jar; after a logout the next
 *       user follows. A 303 to the login page on a user's page means the server lost the session: the client logs
 *       in again as the same user.</li>
 *   <li>After a login or registration it follows the redirect to the home page, as a browser does, which gives it
 *       the session's CSRF token; the token is read again from every page and sent with every POST. A 403 makes it
 *       fetch the home page for a fresh token.</li>
 *   <li>Then it follows the {@link TradeMix}. A sell names the first holding of the user's last portfolio page it has
 *       not sold yet; with none known it looks at the portfolio first, and with none there either it buys instead
 *       (standard, DayTrader's scenario) or goes on (jmeter, DayTrader's JMeter plan). A registration logs the
 *       current user out first, as DayTrader's drivers do, registers a user id no other client or run uses
 *       ({@code ru:<client>:<seed>:<n>}) and goes on as that user.</li>
 *   <li>Every response is checked: its status, the user's own id on a user's page, the page's markers and what the
 *       request asked for (symbols, the order's symbol and quantity); a deep check also compares every symbol row,
 *       the order's id and status, and the balance's form.</li>
 * </ul>
 *
 * One reused {@link Request} per page kind; one event loop uses a session, so it keeps its state without locks.
 */
final class TradeSession implements ClientSession {
    /** PageKind.values() copies the array on every call. */
    private static final PageKind[] KINDS = PageKind.values();
    private static final Pattern AMOUNT = Pattern.compile("-?[0-9][0-9,]*(\\.[0-9]+)?");

    private final TradeTraffic traffic;
    private final TradeMix mix;
    private final int client;
    /** "ru:<client>:<seed>:", the start of every user id this client registers. */
    private final String registeredPrefix;
    private final SplittableRandom random;
    private final CookieJar cookies = new CookieJar();
    /** One per page kind, by ordinal. */
    private final Request[] requests = new Request[KINDS.length];
    private final SymbolList symbols;
    private final Holdings holdings = new Holdings();
    private UserDeck deck;

    /** The user; null when the next login takes the deck's next user. */
    private String userId;
    private byte[] userForm;
    private byte[] passwordForm;
    /** {@code <span id="user">uid:7</span>}: every page of this user shows it. */
    private byte[] userMarker;
    private boolean loggedIn;
    private int registered;

    /** The session's CSRF token as the pages show it, and as a form value; null until a page showed it. */
    private byte[] token;
    private byte[] tokenForm;

    /** The second step of a two-step action (a look at the portfolio, then the sell), or null. */
    private PageKind pending;

    // what the request out asked for, for its check
    private int orderSymbol;
    private long orderQuantity;
    private byte[] updatedName;

    TradeSession(TradeTraffic traffic, ClientContext context) {
        this.traffic = traffic;
        this.mix = traffic.mix;
        this.client = context.clientIndex();
        this.registeredPrefix = "ru:" + client + ":" + Long.toUnsignedString(context.seed(), 36) + ":";
        this.random = new SplittableRandom(context.seed());
        this.symbols = new SymbolList(traffic.quotes);
        for (PageKind kind : KINDS) {
            requests[kind.ordinal()] = new Request(traffic.template(kind));
        }
    }

    @Override
    public Request next() {
        if (!loggedIn) {
            if (pending == PageKind.REGISTER) {
                pending = null;
                return register();
            }
            return login();
        }
        if (tokenForm == null) {
            return page(PageKind.HOME);
        }
        PageKind step = pending;
        pending = null;
        return step == null ? firstStep(mix.pages().pick(random)) : secondStep(step);
    }

    private Request firstStep(PageKind kind) {
        return switch (kind) {
            case QUOTE -> quote(1 + random.nextInt(mix.maxSymbols()));
            case REST_QUOTES -> restQuotes();
            case BUY -> mix.looksFirst() ? then(PageKind.BUY, quote(1)) : buyAnySymbol();
            case SELL -> {
                long holding = holdings.firstUnsold();
                yield mix.looksFirst() || holding < 0 ? then(PageKind.SELL, page(PageKind.PORTFOLIO)) : sell(holding);
            }
            case UPDATE -> mix.looksFirst() ? then(PageKind.UPDATE, page(PageKind.ACCOUNT)) : update();
            // DayTrader's drivers log the current user out before they register a new one
            case REGISTER -> then(PageKind.REGISTER, logout());
            case LOGOUT -> logout();
            default -> page(kind);
        };
    }

    private Request secondStep(PageKind kind) {
        return switch (kind) {
            case BUY -> buy(); // the symbol just quoted
            case UPDATE -> update();
            case SELL -> {
                long holding = holdings.firstUnsold(); // from the portfolio page just read
                if (holding >= 0) {
                    yield sell(holding);
                }
                yield mix.buysWhenNothingToSell() ? buyAnySymbol() : firstStep(mix.pages().pick(random));
            }
            default -> throw new IllegalStateException("no second step after " + kind);
        };
    }

    private Request then(PageKind second, Request first) {
        pending = second;
        return first;
    }

    private Request request(PageKind kind) {
        return requests[kind.ordinal()];
    }

    private Request page(PageKind kind) {
        return request(kind).set(TradeTraffic.COOKIE, cookies.header(traffic.cookiePath));
    }

    private Request post(PageKind kind) {
        return page(kind).set(TradeTraffic.CSRF, tokenForm);
    }

    private Request login() {
        if (userId == null) {
            if (deck == null) {
                deck = new UserDeck(client, traffic.clients.fix(), traffic.users);
            }
            become(TradeRules.userId(deck.next()), TradeRules.PASSWORD);
        }
        startSession();
        return request(PageKind.LOGIN).set(TradeTraffic.USER, userForm).set(TradeTraffic.PASSWORD, passwordForm);
    }

    private Request register() {
        String id = registeredPrefix + (++registered);
        become(id, TradeTraffic.REGISTERED_PASSWORD);
        startSession();
        Request r = request(PageKind.REGISTER).set(TradeTraffic.USER, userForm);
        RandomProfile.fill(r, random, id);
        return r;
    }

    private Request logout() {
        return post(PageKind.LOGOUT);
    }

    private Request quote(int count) {
        return page(PageKind.QUOTE).set(TradeTraffic.SYMBOLS, symbols.draw(random, count).asPath());
    }

    private Request restQuotes() {
        return request(PageKind.REST_QUOTES).set(TradeTraffic.SYMBOLS, symbols.draw(random, 1).asPath());
    }

    private Request buyAnySymbol() {
        symbols.draw(random, 1);
        return buy();
    }

    /** Buys 1-200 of the first symbol in {@link #symbols}. */
    private Request buy() {
        orderSymbol = symbols.get(0);
        orderQuantity = 1 + random.nextInt(200);
        return post(PageKind.BUY).set(TradeTraffic.SYMBOL, symbols.firstAsForm()).set(TradeTraffic.QUANTITY, orderQuantity);
    }

    /** Marked sold as it is sent: a sell that gets no answer may have happened, and is never repeated. */
    private Request sell(long holding) {
        holdings.markSold(holding);
        orderSymbol = holdings.symbolOf(holding);
        orderQuantity = -1; // the portfolio does not show it; the whole holding is sold
        return post(PageKind.SELL).set(TradeTraffic.HOLDING, holding);
    }

    private Request update() {
        Request r = post(PageKind.UPDATE).set(TradeTraffic.PASSWORD, passwordForm);
        updatedName = RandomProfile.fill(r, random, userId).getBytes(StandardCharsets.UTF_8);
        return r;
    }

    /** The client's user from now on. */
    private void become(String id, String password) {
        userId = id;
        userForm = UrlEncoding.formValue(id);
        passwordForm = UrlEncoding.formValue(password);
        userMarker = (TradePages.USER_OPEN + id + TradePages.USER_CLOSE).getBytes(StandardCharsets.UTF_8);
        holdings.clear();
        updatedName = null;
    }

    /** A login or registration starts a new server session: nothing of an earlier one is sent. */
    private void startSession() {
        cookies.clear();
        token = null;
        tokenForm = null;
    }

    private PageKind kindOf(Request request) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == request) {
                return KINDS[i];
            }
        }
        throw new IllegalArgumentException("a request this session did not make: " + request.template().kind());
    }

    @Override
    public Verdict check(Request request, ResponseView response, boolean deep) {
        PageKind kind = kindOf(request);
        if (kind != PageKind.REST_QUOTES && response.header("Set-Cookie") != null) {
            cookies.receive(response, traffic.cookiePath);
        }
        Verdict verdict = switch (kind) {
            case LOGIN, REGISTER -> sessionStarted(kind, response);
            case LOGOUT -> loggedOut(response);
            case REST_QUOTES -> restQuotes(response, deep);
            default -> userPage(kind, response, deep);
        };
        if (!verdict.ok()) {
            forgetAfterFailure(kind);
        }
        return verdict;
    }

    /** Login and register: a 303 to the home page with the session's cookie. */
    private Verdict sessionStarted(PageKind kind, ResponseView response) {
        int status = response.status();
        if (status == 303 && PageScan.redirectsTo(response, traffic.base + TradePages.HOME)) {
            if (cookies.value(TradePages.SESSION_COOKIE) == null) {
                return Verdict.fail(ErrorKind.VALIDATION, kind + ": no " + TradePages.SESSION_COOKIE + " cookie came with the 303");
            }
            loggedIn = true;
            return Verdict.OK;
        }
        String who = userId;
        if (kind == PageKind.REGISTER) {
            userId = null; // not a user: the next login takes the deck's next one
        }
        if (status == 200 && kind == PageKind.LOGIN && PageScan.has(response, PageScan.LOGIN_ERROR)) {
            return Verdict.fail(ErrorKind.FAULT, "login: " + who + " was refused; does the database hold --users "
                    + traffic.users + "?");
        }
        if (status == 200 && kind == PageKind.REGISTER) {
            return Verdict.fail(ErrorKind.FAULT, "register: " + who + " was not registered" + PageScan.problem(response));
        }
        return Verdict.fail(ErrorKind.HTTP_STATUS, kind + ": status " + status + ", expected 303 to " + TradePages.HOME
                + PageScan.problem(response));
    }

    /** The client moves on to its next user whatever the answer. */
    private Verdict loggedOut(ResponseView response) {
        loggedIn = false;
        userId = null;
        int status = response.status();
        if (status == 303 && PageScan.redirectsTo(response, traffic.base + TradePages.LOGIN)) {
            return Verdict.OK;
        }
        return Verdict.fail(ErrorKind.HTTP_STATUS, "logout: status " + status + ", expected 303 to " + TradePages.LOGIN
                + PageScan.problem(response));
    }

    private Verdict userPage(PageKind kind, ResponseView page, boolean deep) {
        int status = page.status();
        if (status == 303 && PageScan.redirectsTo(page, traffic.base + TradePages.LOGIN)) {
            loggedIn = false; // the next request logs the same user in again
            return Verdict.fail(ErrorKind.HTTP_STATUS, kind + ": 303 to " + TradePages.LOGIN + ", the session of " + userId
                    + " was lost; logging in again");
        }
        if (status == 403) {
            token = null; // the home page comes next, with a fresh one
            tokenForm = null;
            return Verdict.fail(ErrorKind.HTTP_STATUS, kind + ": 403, the CSRF token was refused" + PageScan.problem(page));
        }
        if (status != 200) {
            return Verdict.fail(ErrorKind.HTTP_STATUS, kind + ": status " + status + ", expected 200" + PageScan.problem(page));
        }
        if (!PageScan.has(page, userMarker)) {
            return Verdict.fail(ErrorKind.VALIDATION, kind + ": the page does not name its user " + userId);
        }
        readToken(page);
        if (tokenForm == null) {
            return Verdict.fail(ErrorKind.VALIDATION, kind + ": the page has no CSRF token (" + TradePages.CSRF_OPEN + ")");
        }
        String wrong = switch (kind) {
            case HOME -> balanceAnd(page, PageScan.MARKET_SUMMARY, deep);
            case ACCOUNT -> account(page, null, deep);
            case UPDATE -> account(page, updatedName, deep);
            case PORTFOLIO -> PageScan.has(page, PageScan.HOLDINGS) ? holdings.read(page) : "no " + TradePages.HOLDINGS;
            case QUOTE -> quotes(page, PageScan.QUOTE_ROW_SYMBOL, deep);
            case BUY, SELL -> order(page, deep);
            default -> throw new IllegalStateException(kind + " is not a user's page");
        };
        return wrong == null ? Verdict.OK : Verdict.fail(ErrorKind.VALIDATION, kind + ": " + wrong);
    }

    /** Takes the page's token when it differs from the one held: a byte comparison, no copy, on most pages. */
    private void readToken(ResponseView page) {
        int at = page.indexOf(PageScan.CSRF_OPEN, 0);
        int from = at + PageScan.CSRF_OPEN.length;
        int end = at < 0 ? -1 : page.indexOf(PageScan.CSRF_CLOSE, from);
        if (end < 0 || token != null && same(page, from, end, token)) {
            return; // none on the page: the session's token stays
        }
        token = new byte[end - from];
        for (int i = 0; i < token.length; i++) {
            token[i] = page.bodyByte(from + i);
        }
        String value = new String(token, StandardCharsets.UTF_8);
        if (value.indexOf('&') >= 0) {
            value = HtmlExtract.inputValue(page, TradePages.CSRF); // entities decoded
        }
        tokenForm = UrlEncoding.formValue(value);
    }

    private static boolean same(ResponseView page, int from, int end, byte[] value) {
        if (end - from != value.length) {
            return false;
        }
        for (int i = 0; i < value.length; i++) {
            if (page.bodyByte(from + i) != value[i]) {
                return false;
            }
        }
        return true;
    }

    /** Home, and the common part of the account page: the balance and one more marker. */
    private static String balanceAnd(ResponseView page, byte[] other, boolean deep) {
        if (!PageScan.has(page, PageScan.BALANCE)) {
            return "no balance (" + TradePages.BALANCE_OPEN + ")";
        }
        if (!PageScan.has(page, other)) {
            return "no " + new String(other, StandardCharsets.UTF_8);
        }
        if (deep) {
            String amount = page.textBetween(TradePages.BALANCE_OPEN, TradePages.CELL_CLOSE, 40);
            if (amount == null || !AMOUNT.matcher(amount).matches()) {
                return "the balance '" + amount + "' is not an amount";
            }
        }
        return null;
    }

    /** The account page, and after an update the new full name on it. */
    private String account(ResponseView page, byte[] newName, boolean deep) {
        String wrong = balanceAnd(page, PageScan.PROFILE, deep);
        if (wrong == null && newName != null && page.indexOf(newName, 0) < 0) {
            wrong = "the profile does not show the new full name " + new String(newName, StandardCharsets.UTF_8);
        }
        if (wrong == null && deep && updatedName != null) {
            String shown = HtmlExtract.inputValue(page, TradePages.FULL_NAME);
            String expected = new String(updatedName, StandardCharsets.UTF_8);
            if (!expected.equals(shown)) {
                wrong = "the profile's full name is '" + shown + "', updated to '" + expected + "'";
            }
        }
        return wrong;
    }

    /** Quotes and REST quotes: every symbol asked is there; a deep check wants nothing else. */
    private String quotes(ResponseView page, byte[] opener, boolean deep) {
        String absent = symbols.firstMissing(page, opener);
        if (absent != null) {
            return "no quote of " + absent;
        }
        if (deep) {
            String extra = symbols.firstUnasked(page, opener);
            if (extra != null) {
                return "a quote of " + extra + ", which was not asked for";
            }
            int shown = PageScan.count(page, opener);
            if (shown != symbols.count()) {
                return shown + " quotes for " + symbols.count() + " symbols";
            }
        }
        return null;
    }

    /** A buy's or sell's confirmation: its symbol and (buy) quantity; deep, its id and status. */
    private String order(ResponseView page, boolean deep) {
        if (!PageScan.has(page, PageScan.ORDER)) {
            return "no order (" + TradePages.ORDER + ")";
        }
        int symbol = PageScan.symbolAfter(page, PageScan.ORDER_SYMBOL);
        if (orderSymbol >= 0 && symbol != orderSymbol) {
            return "the order is for " + (symbol < 0 ? "no symbol" : "s:" + symbol) + ", not s:" + orderSymbol;
        }
        long quantity = PageScan.numberIn(page, PageScan.ORDER_QUANTITY);
        if (orderQuantity > 0 && quantity != orderQuantity) {
            return "the order's quantity is " + (quantity == Long.MIN_VALUE ? "missing" : quantity) + ", not " + orderQuantity;
        }
        if (deep) {
            if (PageScan.numberIn(page, PageScan.ORDER_ID) < 0) {
                return "the order has no id";
            }
            String state = page.textBetween(TradePages.ORDER_STATUS_OPEN, TradePages.CELL_CLOSE, 20);
            if (!TradeRules.OPEN.equals(state) && !TradeRules.CLOSED.equals(state)) {
                return "the order's status is '" + state + "', expected " + TradeRules.OPEN + " or " + TradeRules.CLOSED;
            }
        }
        return null;
    }

    private Verdict restQuotes(ResponseView response, boolean deep) {
        if (response.status() != 200) {
            return Verdict.fail(ErrorKind.HTTP_STATUS, "rest-quotes: status " + response.status() + ", expected 200");
        }
        String wrong = PageScan.firstByte(response) != '[' ? "not a JSON array" : quotes(response, PageScan.JSON_SYMBOL, deep);
        return wrong == null ? Verdict.OK : Verdict.fail(ErrorKind.VALIDATION, "rest-quotes: " + wrong);
    }

    /** What a failed request leaves unknown. */
    private void forgetAfterFailure(PageKind kind) {
        pending = null; // a second step relies on the first one's page
        if (kind == PageKind.UPDATE) {
            updatedName = null; // the profile may or may not show it
        }
    }

    @Override
    public void failed(Request request, ErrorKind error) {
        PageKind kind = kindOf(request);
        forgetAfterFailure(kind);
        switch (kind) {
            case REGISTER -> userId = null; // it may exist or not: the next login takes the deck's next user
            case LOGOUT -> {
                loggedIn = false;
                userId = null;
            }
            default -> {
                // a login is tried again; any other page leaves the session as it was
            }
        }
    }

    // for the tests

    String userId() {
        return userId;
    }

    boolean loggedIn() {
        return loggedIn;
    }
}

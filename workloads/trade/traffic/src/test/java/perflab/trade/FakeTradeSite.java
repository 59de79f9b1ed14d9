package perflab.trade;

import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.trade.contract.TradePages;
import perflab.trade.contract.TradeRules;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A stand-in for the brokerage's server, in memory, built from the contract's paths, fields and markers only: enough
 * state (users, sessions, CSRF tokens, holdings) for the sessions' rules to be seen working. It records what a real
 * server could not tell the driver: a user logged in twice at once, a sell of a holding its user does not own or
 * that was sold already. The end-to-end tests against the real server come with the stack
 * ({@code workloads/trade/stack-lean}); this site is not a model of it.
 */
final class FakeTradeSite {
    static final class Account {
        final String userId;
        String password;
        String fullName = "first:1 last:1";
        /** holding id to symbol, in the order bought. */
        final Map<Long, Integer> holdings = new LinkedHashMap<>();
        String liveSession;

        Account(String userId, String password) {
            this.userId = userId;
            this.password = password;
        }
    }

    record Session(String userId, String token) {
    }

    /** A request as the site saw it. */
    record Seen(String method, String path, Map<String, String> form, String cookie) {
    }

    private final int users;
    private final Map<String, Account> accounts = new HashMap<>();
    private final Map<String, Session> sessions = new HashMap<>();
    private final Set<Long> sold = new HashSet<>();
    final List<String> violations = new ArrayList<>();
    final List<String> registered = new ArrayList<>();
    final List<Seen> seen = new ArrayList<>();
    private long nextId = 1000;
    private int nextSession;
    private int nextToken;
    /** The status the site gives orders: open (async order processing) or closed (sync). */
    String orderStatus = TradeRules.CLOSED;

    FakeTradeSite(int users) {
        this.users = users;
    }

    /** A populated user, created when first used: 0-3 holdings. */
    Account account(String userId) {
        Account a = accounts.get(userId);
        if (a == null && userId.startsWith("uid:")) {
            int i = Integer.parseInt(userId.substring(4));
            if (i < users) {
                a = new Account(userId, TradeRules.PASSWORD);
                for (int h = 0; h < i % 4; h++) {
                    a.holdings.put(nextId++, (i * 7 + h) % 50);
                }
                accounts.put(userId, a);
            }
        }
        return a;
    }

    /** The server forgets a session (restart, timeout). */
    void dropSession(String userId) {
        sessions.values().removeIf(s -> s.userId.equals(userId));
        Account a = accounts.get(userId);
        if (a != null) {
            a.liveSession = null;
        }
    }

    /** The next user page gives its session a new token (one that needs escaping in HTML and in a form). */
    boolean rotateTokenOnNextPage;

    String tokenOf(String userId) {
        return sessions.values().stream().filter(s -> s.userId.equals(userId)).map(Session::token).findFirst().orElse(null);
    }

    FakeResponse handle(Request request) {
        RequestTemplate t = request.template();
        String target = t.path(request);
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        Map<String, String> form = new LinkedHashMap<>();
        if (q >= 0) {
            parse(target.substring(q + 1), form);
        }
        parse(new String(t.body(request), StandardCharsets.UTF_8), form);
        String cookie = header(request, "Cookie");
        seen.add(new Seen(t.method(), path, form, cookie));
        String sid = cookie != null && cookie.startsWith(TradePages.SESSION_COOKIE + "=")
                ? cookie.substring(TradePages.SESSION_COOKIE.length() + 1) : null;
        Session session = sid == null ? null : sessions.get(sid);
        boolean post = t.method().equals("POST");

        if (path.equals(TradePages.LOGIN) && post) {
            Account a = account(form.get(TradePages.USER_ID));
            if (a == null || !a.password.equals(form.get(TradePages.PASSWORD))) {
                return FakeResponse.page(200, "<form>" + TradePages.LOGIN_ERROR + "wrong user id or password</p></form>");
            }
            return startSession(a);
        }
        if (path.equals(TradePages.REGISTER) && post) {
            String uid = form.get(TradePages.USER_ID);
            if (accounts.containsKey(uid) || account(uid) != null) {
                return FakeResponse.page(200, TradePages.PROBLEM + "user id " + uid + " is taken</p>");
            }
            if (!form.get(TradePages.PASSWORD).equals(form.get(TradePages.CONFIRM_PASSWORD))) {
                return FakeResponse.page(200, TradePages.PROBLEM + "the passwords differ</p>");
            }
            Account a = new Account(uid, form.get(TradePages.PASSWORD));
            a.fullName = form.get(TradePages.FULL_NAME);
            accounts.put(uid, a);
            registered.add(uid);
            return startSession(a);
        }
        if (path.startsWith(TradePages.REST_QUOTES)) {
            StringBuilder json = new StringBuilder("[");
            for (String s : path.substring(TradePages.REST_QUOTES.length()).split(",")) {
                json.append(json.length() > 1 ? "," : "").append("{\"symbol\":\"").append(s)
                        .append("\",\"companyName\":\"S Incorporated\",\"price\":12.5}");
            }
            return new FakeResponse(200, Map.of("Content-Type", List.of("application/json")),
                    json.append(']').toString().getBytes(StandardCharsets.UTF_8));
        }
        if (session == null) {
            return redirect(TradePages.LOGIN, null);
        }
        if (post && !session.token.equals(form.get(TradePages.CSRF))) {
            return FakeResponse.page(403, TradePages.PROBLEM + "the form's token is not this session's</p>");
        }
        Account a = accounts.get(session.userId);
        switch (path) {
            case TradePages.LOGOUT -> {
                sessions.remove(sid);
                a.liveSession = null;
                return redirect(TradePages.LOGIN, null);
            }
            case TradePages.HOME -> {
                return userPage(session, TradePages.BALANCE_OPEN + "1234.50" + TradePages.CELL_CLOSE
                        + TradePages.MARKET_SUMMARY + "<tr><td>s:1</td></tr></table>");
            }
            case TradePages.ACCOUNT -> {
                if (post) {
                    if (!form.get(TradePages.PASSWORD).equals(form.get(TradePages.CONFIRM_PASSWORD))) {
                        return FakeResponse.page(400, TradePages.PROBLEM + "the passwords differ</p>");
                    }
                    a.password = form.get(TradePages.PASSWORD);
                    a.fullName = form.get(TradePages.FULL_NAME);
                }
                return userPage(session, TradePages.BALANCE_OPEN + "99.00" + TradePages.CELL_CLOSE
                        + TradePages.PROFILE + " method=\"post\"><input name=\"fullname\" value=\"" + a.fullName + "\"></form>");
            }
            case TradePages.PORTFOLIO -> {
                StringBuilder rows = new StringBuilder(TradePages.HOLDINGS);
                a.holdings.forEach((id, symbol) -> rows.append(TradePages.HOLDING_ROW).append(id)
                        .append("\" data-symbol=\"s:").append(symbol).append("\"><td>100.0</td></tr>"));
                return userPage(session, rows.append("</table>").toString());
            }
            case TradePages.QUOTES -> {
                StringBuilder rows = new StringBuilder("<table>");
                for (String s : form.get(TradePages.SYMBOLS).split(",")) {
                    rows.append(TradePages.QUOTE_ROW).append(s).append("\"><td>12.50</td></tr>");
                }
                return userPage(session, rows.append("</table>").toString());
            }
            case TradePages.BUY -> {
                long id = nextId++;
                int symbol = Integer.parseInt(form.get(TradePages.SYMBOL).substring(2));
                a.holdings.put(id, symbol);
                return userPage(session, order(id, "s:" + symbol, form.get(TradePages.QUANTITY) + ".0", orderStatus));
            }
            case TradePages.SELL -> {
                long id = Long.parseLong(form.get(TradePages.HOLDING_ID));
                if (!sold.add(id)) {
                    violations.add(a.userId + " sold holding " + id + " twice");
                }
                Integer symbol = a.holdings.remove(id);
                if (symbol == null) {
                    violations.add(a.userId + " sold holding " + id + ", which it does not own");
                    return userPage(session, order(nextId++, "", "0", TradeRules.CANCELLED));
                }
                return userPage(session, order(nextId++, "s:" + symbol, "100.0", orderStatus));
            }
            default -> {
                return FakeResponse.page(404, TradePages.PROBLEM + "no page " + path + "</p>");
            }
        }
    }

    private FakeResponse startSession(Account a) {
        if (a.liveSession != null && sessions.containsKey(a.liveSession)) {
            violations.add(a.userId + " logged in while its session " + a.liveSession + " is live");
        }
        String sid = "s" + (nextSession++);
        sessions.put(sid, new Session(a.userId, "tok" + (nextToken++)));
        a.liveSession = sid;
        return redirect(TradePages.HOME, TradePages.SESSION_COOKIE + "=" + sid + "; Path=/; HttpOnly");
    }

    private static FakeResponse redirect(String path, String setCookie) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Location", List.of("http://127.0.0.1:8080" + path));
        if (setCookie != null) {
            headers.put("Set-Cookie", List.of(setCookie));
        }
        return new FakeResponse(303, headers, new byte[0]);
    }

    private FakeResponse userPage(Session session, String content) {
        Session s = session;
        if (rotateTokenOnNextPage) {
            rotateTokenOnNextPage = false;
            s = new Session(s.userId, "tok+" + (nextToken++) + "/x=&y");
            Session rotated = s;
            sessions.replaceAll((id, old) -> old == session ? rotated : old);
        }
        return FakeResponse.page(200, "<html><body><p>" + TradePages.USER_OPEN + s.userId + TradePages.USER_CLOSE
                + "</p><form method=\"post\" action=\"/logout\">" + TradePages.CSRF_OPEN + s.token.replace("&", "&amp;")
                + TradePages.CSRF_CLOSE + "><button>Log out</button></form>" + content + "</body></html>");
    }

    private static String order(long id, String symbol, String quantity, String status) {
        return TradePages.ORDER + "<tr>" + TradePages.ORDER_ID_OPEN + id + TradePages.CELL_CLOSE
                + TradePages.ORDER_SYMBOL_OPEN + symbol + TradePages.CELL_CLOSE
                + TradePages.ORDER_QUANTITY_OPEN + quantity + TradePages.CELL_CLOSE
                + TradePages.ORDER_STATUS_OPEN + status + TradePages.CELL_CLOSE + "</tr></table>";
    }

    /** A header as the driver would send it (null when left out: a header that is one empty slot). */
    static String header(Request request, String name) {
        for (RequestTemplate.Header h : request.template().headers()) {
            if (h.name().equalsIgnoreCase(name)) {
                String value = new String(RequestTemplate.render(h.value(), request), StandardCharsets.ISO_8859_1);
                return value.isEmpty() ? null : value;
            }
        }
        return null;
    }

    private static void parse(String encoded, Map<String, String> into) {
        if (encoded.isEmpty()) {
            return;
        }
        for (String pair : encoded.split("&")) {
            int eq = pair.indexOf('=');
            into.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
    }
}

package perflab.trade.site;

import org.junit.jupiter.api.Test;
import perflab.trade.contract.TradePages;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Holding;
import perflab.trade.lean.web.Formats;

import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pages as a person (and an attacker) uses them, the same on every trade stack: sessions, CSRF, refusals,
 * escaping, hostile requests. A stack's test extends this with its running site ({@link #site()}), populated with at
 * least 6 users and 30 symbols; what a request did is read back from the books ({@link SiteUnderTest#books()}).
 */
public abstract class TradeSiteContract {
    /** The site under test, started once for the class. */
    protected abstract SiteUnderTest site();

    private SiteBrowser loggedIn(String userId) throws Exception {
        SiteBrowser b = site().browser();
        HttpResponse<String> r = b.login(userId, TradeRules.PASSWORD);
        assertEquals(303, r.statusCode(), r.body());
        return b;
    }

    @Test
    void aUserLogsInAndSeesTheirPages() throws Exception {
        SiteBrowser b = loggedIn("uid:1");
        String home = b.get("/home").body();
        assertTrue(home.contains(TradePages.USER_OPEN + "uid:1" + TradePages.USER_CLOSE), home);
        assertTrue(home.contains(TradePages.BALANCE_OPEN + Formats.money(site().trade().account("uid:1").orElseThrow().balance())
                + TradePages.CELL_CLOSE));
        assertTrue(home.contains(TradePages.MARKET_SUMMARY));
        String portfolio = b.get("/portfolio").body();
        for (Holding h : site().trade().holdings("uid:1")) {
            assertTrue(portfolio.contains(TradePages.HOLDING_ROW + h.holdingId() + "\" data-symbol=\"" + h.symbol() + "\""));
        }
        String quotes = b.get("/quotes?symbols=s:3,s:4,s:999").body();
        assertTrue(quotes.contains(TradePages.QUOTE_ROW + "s:3\"") && quotes.contains(TradePages.QUOTE_ROW + "s:4\""));
        assertFalse(quotes.contains(TradePages.QUOTE_ROW + "s:999\""), "an unknown symbol is left out");
        assertEquals(200, b.get("/account").statusCode());
    }

    @Test
    void aBuyIsConfirmedAndItsClosedOrderAlertedOnce() throws Exception {
        SiteBrowser b = loggedIn("uid:2");
        b.get("/home"); // the population's closed orders are alerted here
        BigDecimal before = site().trade().account("uid:2").orElseThrow().balance();
        HttpResponse<String> buy = b.post("/buy", "csrf", b.token(), "symbol", "s:7", "quantity", "25");
        assertEquals(200, buy.statusCode(), buy.body());
        String order = buy.body();
        assertTrue(order.contains(TradePages.ORDER_SYMBOL_OPEN + "s:7" + TradePages.CELL_CLOSE), order);
        assertTrue(order.contains(TradePages.ORDER_QUANTITY_OPEN + "25" + TradePages.CELL_CLOSE), order);
        assertTrue(order.contains(TradePages.ORDER_STATUS_OPEN + TradeRules.CLOSED + TradePages.CELL_CLOSE), order);
        assertTrue(site().trade().account("uid:2").orElseThrow().balance().compareTo(before) < 0);
        String next = b.get("/portfolio").body();
        assertTrue(next.contains(TradePages.ALERTS) && next.contains("s:7"), "the closed buy is alerted on the next page");
        assertFalse(b.get("/portfolio").body().contains(TradePages.ALERTS), "and only once");
    }

    @Test
    void aWrongPasswordShowsTheFormAgainAndStartsNoSession() throws Exception {
        SiteBrowser b = site().browser();
        HttpResponse<String> r = b.login("uid:1", "not-the-password");
        assertEquals(200, r.statusCode());
        assertTrue(r.body().contains(TradePages.LOGIN_ERROR));
        assertTrue(r.headers().firstValue("Set-Cookie").isEmpty(), "no session for a failed login");
        assertEquals(200, b.login("no-such-user", "x").statusCode());
    }

    @Test
    void theSessionIdChangesAtLoginAndTheOldOneIsUseless() throws Exception {
        SiteBrowser b = loggedIn("uid:3");
        String first = b.sessionCookie;
        assertNotNull(first);
        SiteBrowser attacker = site().browser();
        attacker.sessionCookie = first; // a session id planted before the login
        b.login("uid:3", TradeRules.PASSWORD);
        assertNotEquals(first, b.sessionCookie, "a login gives a new session id");
        assertEquals(200, b.get("/home").statusCode());
        HttpResponse<String> old = attacker.get("/home");
        assertEquals(303, old.statusCode(), "the id from before the login is not logged in");
        assertEquals(TradePages.LOGIN, old.headers().firstValue("Location").orElseThrow());
    }

    @Test
    void aUsersPageWithoutASessionGoesToTheLoginPage() throws Exception {
        for (String path : List.of("/home", "/account", "/portfolio", "/quotes?symbols=s:1")) {
            HttpResponse<String> r = site().browser().get(path);
            assertEquals(303, r.statusCode(), path);
            assertEquals(TradePages.LOGIN, r.headers().firstValue("Location").orElseThrow(), path);
        }
        HttpResponse<String> buy = site().browser().post("/buy", "symbol", "s:1", "quantity", "1");
        assertEquals(303, buy.statusCode());
    }

    @Test
    void aFormWithoutTheSessionsTokenIs403AndChangesNothing() throws Exception {
        SiteBrowser b = loggedIn("uid:4");
        String books = site().books();
        Holding held = site().trade().holdings("uid:4").stream().findFirst().orElse(null);
        for (String token : new String[] {null, "", "forged-token", site().browser().sessionCookie}) {
            String[] tokenField = token == null ? new String[0] : new String[] {"csrf", token};
            assertEquals(403, b.post("/buy", concat(tokenField, "symbol", "s:1", "quantity", "5")).statusCode());
            assertEquals(403, b.post("/account", concat(tokenField, "passwd", "p", "confirm", "p", "fullname", "X")).statusCode());
            assertEquals(403, b.post("/logout", tokenField).statusCode());
            if (held != null) {
                assertEquals(403, b.post("/sell", concat(tokenField, "holdingId", "" + held.holdingId())).statusCode());
            }
        }
        assertEquals(books, site().books());
        assertEquals(200, b.get("/home").statusCode(), "still logged in: the forged logout did nothing");
    }

    @Test
    void badQuantitiesSymbolsAndHoldingsGetAPageThatSaysSoAndChangeNothing() throws Exception {
        SiteBrowser b = loggedIn("uid:5");
        String token = b.token();
        String books = site().books();
        for (String quantity : List.of("abc", "-5", "0", "1e9", "", "NaN", "100000000", "12;DROP TABLE quote")) {
            HttpResponse<String> r = b.post("/buy", "csrf", token, "symbol", "s:1", "quantity", quantity);
            assertEquals(400, r.statusCode(), "quantity '" + quantity + "': " + r.body());
            assertTrue(r.body().contains(TradePages.PROBLEM), quantity);
        }
        assertEquals(400, b.post("/buy", "csrf", token, "symbol", "s:99999", "quantity", "1").statusCode());
        assertEquals(400, b.post("/buy", "csrf", token, "quantity", "1").statusCode(), "no symbol");
        Holding someoneElses = null;
        for (int u = 0; u < site().users() && someoneElses == null; u++) {
            if (u != 5) {
                someoneElses = site().trade().holdings("uid:" + u).stream().findFirst().orElse(null);
            }
        }
        assertNotNull(someoneElses, "the population gives some user a holding");
        HttpResponse<String> steal = b.post("/sell", "csrf", token, "holdingId", "" + someoneElses.holdingId());
        assertEquals(403, steal.statusCode(), steal.body());
        assertTrue(steal.body().contains(TradePages.PROBLEM));
        for (String id : List.of("x", "-1", "", "1 OR 1=1")) {
            assertEquals(400, b.post("/sell", "csrf", token, "holdingId", id).statusCode(), id);
        }
        assertEquals(400, b.get("/quotes?symbols=s:0,s:1,s:2,s:3,s:4,s:5,s:6,s:7,s:8,s:9,s:10").statusCode(), "more than 10 symbols");
        assertEquals(books, site().books());
    }

    @Test
    void sqlMetacharactersInEveryFieldChangeNothingAndNeverGiveA500() throws Exception {
        SiteBrowser b = loggedIn("uid:0");
        String token = b.token();
        String books = site().books();
        for (String p : List.of("s:1'; DROP TABLE quote; --", "uid:0' OR '1'='1", "1 OR 1=1", "'); TRUNCATE TABLE orders; --")) {
            String q = java.net.URLEncoder.encode(p, java.nio.charset.StandardCharsets.UTF_8);
            List<HttpResponse<String>> answers = List.of(
                    site().browser().login(p, TradeRules.PASSWORD), site().browser().login("uid:0", p),
                    b.get("/quotes?symbols=" + q), site().browser().get("/rest/quotes/" + q),
                    b.post("/buy", "csrf", token, "symbol", p, "quantity", "1"),
                    b.post("/buy", "csrf", token, "symbol", "s:1", "quantity", p),
                    b.post("/sell", "csrf", token, "holdingId", p));
            for (HttpResponse<String> a : answers) {
                assertTrue(a.statusCode() < 500, a.request().uri() + " with " + p + ": " + a.statusCode() + " " + a.body());
            }
        }
        assertEquals(books, site().books());
    }

    @Test
    void markupInProfileFieldsComesBackEscaped() throws Exception {
        SiteBrowser b = loggedIn("uid:1");
        String markup = "<script>alert('x')</script>\"><img src=x onerror=alert(1)>";
        HttpResponse<String> r = b.post("/account", "csrf", b.token(), "passwd", TradeRules.PASSWORD,
                "confirm", TradeRules.PASSWORD, "fullname", markup, "address", markup, "email", "a@b.c", "creditcard", "1");
        assertEquals(200, r.statusCode(), r.body());
        assertFalse(r.body().contains("<script>alert"), r.body());
        assertFalse(r.body().contains("\"><img"), "the value cannot close its attribute: " + r.body());
        assertTrue(r.body().contains("value=\"&lt;script"), "escaped as text in its attribute: " + r.body());
        assertEquals(markup, site().trade().profile("uid:1").orElseThrow().fullName(), "stored as typed");
        HttpResponse<String> mismatch = b.post("/account", "csrf", b.token(), "passwd", "a", "confirm", "b", "fullname", "Y");
        assertEquals(400, mismatch.statusCode());
        assertEquals(markup, site().trade().profile("uid:1").orElseThrow().fullName(), "a refused update changes nothing");
    }

    @Test
    void registrationLogsTheNewUserInAndRefusesATakenId() throws Exception {
        SiteBrowser b = site().browser();
        HttpResponse<String> r = b.post("/register", "uid", "ru:web:1", "passwd", "yyy", "confirm", "yyy",
                "fullname", "New User", "address", "1 Oak St.", "email", "n@x.com", "creditcard", "1-2", "money", "5000");
        assertEquals(303, r.statusCode(), r.body());
        assertEquals(TradePages.HOME, r.headers().firstValue("Location").orElseThrow());
        assertTrue(b.get("/home").body().contains(TradePages.USER_OPEN + "ru:web:1" + TradePages.USER_CLOSE));
        assertEquals(new BigDecimal("5000.00"), site().trade().account("ru:web:1").orElseThrow().balance());
        assertTrue(site().trade().login("ru:web:1", "yyy").isPresent());

        HttpResponse<String> taken = site().browser().post("/register", "uid", "uid:1", "passwd", "p", "confirm", "p",
                "fullname", "F", "address", "A", "email", "e@x", "creditcard", "1", "money", "1");
        assertEquals(409, taken.statusCode());
        assertTrue(taken.body().contains(TradePages.PROBLEM));
        assertTrue(taken.headers().firstValue("Set-Cookie").isEmpty());
        assertEquals(400, site().browser().post("/register", "uid", "ru:web:2", "passwd", "p", "confirm", "q", "money", "1").statusCode());
        assertEquals(400, site().browser().post("/register", "uid", "ru:web:3", "passwd", "p", "confirm", "p", "money", "-1").statusCode());
        assertTrue(site().trade().account("ru:web:2").isEmpty() && site().trade().account("ru:web:3").isEmpty());
    }

    @Test
    void logoutEndsTheSession() throws Exception {
        SiteBrowser b = loggedIn("uid:2");
        HttpResponse<String> out = b.post("/logout", "csrf", b.token());
        assertEquals(303, out.statusCode());
        assertEquals(TradePages.LOGIN, out.headers().firstValue("Location").orElseThrow());
        assertEquals(303, b.get("/home").statusCode());
    }

    @Test
    void theQuotesApiAnswersJsonWithoutASession() throws Exception {
        HttpResponse<String> r = site().browser().get("/rest/quotes/s:1,s:2,nope");
        assertEquals(200, r.statusCode());
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(r.body().startsWith("[{\"symbol\":\"s:1\",\"companyName\":\"S1 Incorporated\",\"price\":"), r.body());
        assertTrue(r.body().contains("\"symbol\":\"s:2\"") && !r.body().contains("nope"), r.body());
    }

    @Test
    void theAuditAnswersThisMachineWithTheBooksChecked() throws Exception {
        HttpResponse<String> r = site().browser().get(TradePages.ADMIN_AUDIT);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("{\"drained\":true,\"accountsChecked\":" + site().trade().audit().accountsChecked()
                + ",\"violationCount\":0,\"firstViolations\":[]}", r.body());
    }

    @Test
    void oddRequestsGetA4xxNeverA500() throws Exception {
        SiteBrowser b = loggedIn("uid:3");
        assertEquals(404, b.get("/no-such-page").statusCode());
        assertEquals(405, b.get("/buy").statusCode());
        assertEquals(405, b.post("/home", "csrf", b.token()).statusCode());
        Map<String, Integer> statuses = Map.of(
                "oversized", b.post("/buy", "csrf", "x", "symbol", "s:1".repeat(10_000), "quantity", "1").statusCode(),
                "many fields", b.post("/buy", manyFields()).statusCode());
        statuses.forEach((what, status) -> assertTrue(status >= 400 && status < 500, what + ": " + status));
    }

    /**
     * What a stranger sends instead of a browser's requests: other methods, malformed escapes, NUL bytes, paths to the
     * server's own files, a long path, a form of the wrong type or size. Every one gets a 4xx; none a 500 or silence,
     * and none changes the books.
     */
    @Test
    void hostileRequestsGetA4xxNeverA500AndChangeNothing() throws Exception {
        SiteBrowser b = loggedIn("uid:4");
        String token = b.token();
        String books = site().books();
        Map<String, HttpResponse<String>> answers = new java.util.LinkedHashMap<>();
        answers.put("PUT /home", b.send("PUT", "/home", null, null));
        answers.put("DELETE /account", b.send("DELETE", "/account", null, null));
        answers.put("a buy as JSON", b.send("POST", "/buy", "application/json", "{\"symbol\":\"s:1\",\"quantity\":1}"));
        answers.put("a buy without a type", b.send("POST", "/buy", null, "csrf=" + token + "&symbol=s:1&quantity=1"));
        answers.put("a malformed escape in a form", b.send("POST", "/buy", "application/x-www-form-urlencoded",
                "csrf=" + token + "&symbol=s%zz1&quantity=1"));
        answers.put("a NUL in a field", b.post("/buy", "csrf", token, "symbol", "s:1\u0000", "quantity", "1"));
        answers.put("a NUL in a quantity", b.post("/buy", "csrf", token, "symbol", "s:1", "quantity", "1\u00000"));
        answers.put("a NUL in a profile", b.post("/account", "csrf", token, "passwd", TradeRules.PASSWORD, "confirm",
                TradeRules.PASSWORD, "fullname", "A\u0000B", "address", "", "email", "", "creditcard", ""));
        answers.put("a page that is a file", b.get("/login.jsp"));
        answers.put("the server's own file", b.get("/WEB-INF/web.xml"));
        answers.put("a long path", b.get("/" + "a".repeat(4000)));
        answers.put("a form of 17 KB", b.post("/buy", "csrf", token, "symbol", "s:1", "quantity", "1", "pad",
                "x".repeat(17 * 1024)));
        answers.forEach((what, r) -> assertTrue(r.statusCode() >= 400 && r.statusCode() < 500,
                what + ": " + r.statusCode() + " " + r.body()));
        String host = "Host: " + site().base().getHost() + ":" + site().base().getPort() + "\r\n";
        Map<String, Integer> raw = Map.of(
                "a malformed escape in a query", b.rawStatus("GET /quotes?symbols=%zz HTTP/1.1\r\n" + host
                        + "Cookie: " + b.sessionCookie + "\r\nConnection: close\r\n\r\n"),
                "a malformed escape in a path", b.rawStatus("GET /ho%zzme HTTP/1.1\r\n" + host
                        + "Connection: close\r\n\r\n"),
                "a path out of the application", b.rawStatus("GET /../../etc/passwd HTTP/1.1\r\n" + host
                        + "Connection: close\r\n\r\n"));
        raw.forEach((what, status) -> assertTrue(status >= 400 && status < 500, what + ": " + status));
        HttpResponse<String> nul = site().browser().login("uid:1\u0000", TradeRules.PASSWORD);
        assertTrue(nul.statusCode() < 500 && nul.headers().firstValue("Set-Cookie").isEmpty(),
                "a NUL in a user id logs nobody in: " + nul.statusCode() + " " + nul.body());
        assertEquals(200, b.get("/home").statusCode(), "the session survived all of it");
        assertEquals(books, site().books());
    }

    private static String[] manyFields() {
        String[] fields = new String[200];
        for (int i = 0; i < fields.length; i += 2) {
            fields[i] = "f" + i;
            fields[i + 1] = "v";
        }
        return fields;
    }

    private static String[] concat(String[] first, String... rest) {
        String[] all = new String[first.length + rest.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        return all;
    }
}

package perflab.trade;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.Verdict;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.WorkloadSetting;
import perflab.trade.contract.TradePages;

import java.net.URI;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The session against {@link FakeTradeSite}, a stand-in built from the contract's markers: the server does not
 * exist yet. The end-to-end tests against the real server come with the stack (workloads/trade/stack-lean).
 */
class TradeSessionTest {
    /** The pages that name their user and need the session. */
    private static final Set<PageKind> USER_PAGES = java.util.EnumSet.of(PageKind.HOME, PageKind.ACCOUNT, PageKind.UPDATE,
            PageKind.PORTFOLIO, PageKind.QUOTE, PageKind.BUY, PageKind.SELL);
    private static final Pattern DATA_ID = Pattern.compile("data-id=\"(\\d+)\"");

    static TradeTraffic traffic(String mix, int users) {
        Map<String, String> given = Map.of(TradeWorkload.MIX, mix, TradeWorkload.USERS, Integer.toString(users),
                TradeWorkload.QUOTES, "60");
        TradeWorkload w = new TradeWorkload();
        return (TradeTraffic) w.traffic(new TrafficOptions("scenario", URI.create("http://127.0.0.1:8080/login"), 7,
                w.resolveSettings(WorkloadSetting.Use.TRAFFIC, given)));
    }

    static TradeSession session(TradeTraffic traffic, int client) {
        return (TradeSession) traffic.newSession(new ClientContext(client, 1000L + client));
    }

    static PageKind kindOf(Request r) {
        return PageKind.valueOf(r.template().kind().toUpperCase().replace('-', '_'));
    }

    /** Sends the session's next request to the site and checks the answer. */
    static Verdict exchange(TradeSession s, FakeTradeSite site, boolean deep) {
        Request r = s.next();
        return s.check(r, site.handle(r), deep);
    }

    /** Answers requests through the site until the session's next request matches; returns that one, unanswered. */
    static Request advanceTo(TradeSession s, FakeTradeSite site, Predicate<Request> wanted) {
        for (int i = 0; i < 10_000; i++) {
            Request r = s.next();
            if (wanted.test(r)) {
                return r;
            }
            Verdict v = s.check(r, site.handle(r), false);
            assertTrue(v.ok(), v.toString());
        }
        throw new AssertionError("the session never sent the request wanted");
    }

    static Predicate<Request> kind(PageKind kind) {
        return r -> kindOf(r) == kind;
    }

    @Test
    void logsInFirstThenSendsTheSessionCookie() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic("standard", 100), 0);
        Request login = s.next();
        assertEquals(PageKind.LOGIN, kindOf(login));
        assertNull(FakeTradeSite.header(login, "Cookie"), "no cookie before the session exists");
        assertTrue(s.check(login, site.handle(login), true).ok());
        FakeTradeSite.Seen sent = site.seen.get(0);
        assertEquals(Map.of("uid", "uid:0", "passwd", "xxx"), sent.form());

        Request next = s.next();
        assertEquals(PageKind.HOME, kindOf(next), "the login's redirect is followed, as a browser does");
        assertEquals(TradePages.SESSION_COOKIE + "=s0", FakeTradeSite.header(next, "Cookie"));
        assertTrue(s.check(next, site.handle(next), true).ok());
    }

    @Test
    void theTokenOfThePagesGoesWithEveryPostEvenWhenItChanges() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic("standard", 100), 3);
        int posts = 0;
        for (int i = 0; i < 3000; i++) {
            if (i % 100 == 50) {
                site.rotateTokenOnNextPage = true; // a token with '+', '/', '=' and '&' (escaped in the page)
            }
            Request r = s.next();
            PageKind kind = kindOf(r);
            Verdict v = s.check(r, site.handle(r), false);
            assertTrue(v.ok(), kind + ": " + v); // the site answers 403 to a post without the session's token
            if (r.template().method().equals("POST") && kind != PageKind.LOGIN && kind != PageKind.REGISTER) {
                posts++;
            }
        }
        assertTrue(posts > 300, posts + " posts");
    }

    @Test
    void aRedirectToTheLoginPageMakesTheClientLogInAgainAsTheSameUser() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic("standard", 100), 2);
        Request page = advanceTo(s, site, r -> USER_PAGES.contains(kindOf(r)) && s.loggedIn() && !r.template().method().equals("POST"));
        String user = s.userId();
        site.dropSession(user);
        Verdict lost = s.check(page, site.handle(page), false);
        assertEquals(ErrorKind.HTTP_STATUS, lost.kind());
        assertTrue(lost.message().contains("lost"), lost.message());

        Request login = s.next();
        assertEquals(PageKind.LOGIN, kindOf(login));
        assertTrue(s.check(login, site.handle(login), false).ok());
        assertEquals(user, site.seen.get(site.seen.size() - 1).form().get("uid"));
        for (int i = 0; i < 20; i++) {
            assertTrue(exchange(s, site, true).ok());
        }
    }

    @Test
    void aRefusedTokenBringsTheHomePageForAFreshOne() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic("standard", 100), 0);
        Request post = advanceTo(s, site, r -> r.template().method().equals("POST") && USER_PAGES.contains(kindOf(r)));
        Verdict v = s.check(post, site.handle(post).withStatus(403), false);
        assertEquals(ErrorKind.HTTP_STATUS, v.kind());
        assertTrue(v.message().contains("CSRF"), v.message());
        assertEquals(PageKind.HOME, kindOf(s.next()));
    }

    @ParameterizedTest
    @CsvSource({"standard, true", "standard, false", "jmeter, true", "jmeter, false"})
    void sellsOnlyHoldingsOfItsLastPortfolioPageAndNeverOneTwice(String mix, boolean deep) {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic(mix, 100), 5);
        Map<String, Set<Long>> lastPortfolio = new HashMap<>();
        Set<Long> sold = new HashSet<>();
        int sells = 0;
        for (int i = 0; i < 20_000; i++) {
            Request r = s.next();
            PageKind kind = kindOf(r);
            String user = s.userId();
            FakeResponse answer = site.handle(r);
            if (kind == PageKind.SELL) {
                long id = Long.parseLong(site.seen.get(site.seen.size() - 1).form().get(TradePages.HOLDING_ID));
                assertTrue(lastPortfolio.getOrDefault(user, Set.of()).contains(id), "holding " + id + " was not on "
                        + user + "'s last portfolio page " + lastPortfolio.get(user));
                assertTrue(sold.add(id), "holding " + id + " sold twice");
                sells++;
            }
            if (kind == PageKind.PORTFOLIO) {
                Set<Long> ids = new HashSet<>();
                Matcher m = DATA_ID.matcher(answer.text());
                while (m.find()) {
                    ids.add(Long.parseLong(m.group(1)));
                }
                lastPortfolio.put(user, ids);
            }
            if (kind == PageKind.LOGIN || kind == PageKind.REGISTER) {
                lastPortfolio.remove(user); // a new login knows nothing of the user's holdings yet
            }
            Verdict v = s.check(r, answer, deep);
            assertTrue(v.ok(), kind + ": " + v);
        }
        assertTrue(sells > 200, sells + " sells");
        assertEquals(List.of(), site.violations);
    }

    @ParameterizedTest
    @CsvSource({"standard, true", "standard, false", "jmeter, true", "jmeter, false"})
    void everyPageKindOfTheMixRunsCleanAgainstTheSite(String mix, boolean deep) {
        FakeTradeSite site = new FakeTradeSite(200);
        site.orderStatus = deep ? "open" : "closed"; // async order processing shows the order open
        TradeSession s = session(traffic(mix, 200), 1);
        Map<PageKind, Integer> counts = new EnumMap<>(PageKind.class);
        for (int i = 0; i < 20_000; i++) {
            Request r = s.next();
            Verdict v = s.check(r, site.handle(r), deep);
            assertTrue(v.ok(), r + ": " + v);
            counts.merge(kindOf(r), 1, Integer::sum);
        }
        Set<PageKind> expected = new HashSet<>(List.of(PageKind.values()));
        if (mix.equals("standard")) {
            expected.remove(PageKind.REST_QUOTES);
        }
        assertEquals(expected, counts.keySet(), counts.toString());
        assertEquals(List.of(), site.violations);
    }

    @Test
    void quotesAskForOneToTenDistinctSymbolsBelowTheLastOne() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic("standard", 100), 0);
        Set<Integer> sizes = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            Request quote = advanceTo(s, site, kind(PageKind.QUOTE));
            String symbols = quote.template().path(quote).substring((TradePages.QUOTES + "?symbols=").length());
            List<String> list = List.of(symbols.split(","));
            assertEquals(list.size(), new HashSet<>(list).size(), symbols);
            for (String symbol : list) {
                int n = Integer.parseInt(symbol.substring(2));
                assertTrue(n >= 0 && n <= 58, symbol + " with --quotes 60");
            }
            sizes.add(list.size());
            assertTrue(s.check(quote, site.handle(quote), true).ok());
        }
        assertEquals(Set.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), sizes);
    }

    @Test
    void registersUserIdsNoOtherClientOrRunUsesAndGoesOnAsTheNewUser() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeTraffic traffic = traffic("standard", 100);
        List<TradeSession> clients = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            clients.add(session(traffic, c));
        }
        for (int i = 0; i < 4000; i++) {
            for (TradeSession s : clients) {
                Verdict v = exchange(s, site, true); // a user page checks it names the new user
                assertTrue(v.ok(), v.toString());
            }
        }
        assertTrue(site.registered.size() > 100, site.registered.size() + " registered");
        assertEquals(site.registered.size(), new HashSet<>(site.registered).size());
        for (String id : site.registered) {
            assertTrue(id.matches("ru:[0-3]:[0-9a-z]+:[0-9]+"), id);
        }
        // another run (another seed): other ids for the same client
        TradeSession again = (TradeSession) traffic("standard", 100).newSession(new ClientContext(0, 99));
        FakeTradeSite other = new FakeTradeSite(100);
        while (other.registered.isEmpty()) {
            assertTrue(exchange(again, other, false).ok());
        }
        assertFalse(site.registered.contains(other.registered.get(0)), other.registered.get(0));
        assertEquals(other.registered.get(0), again.userId(), "it goes on as the user it registered");
    }

    @Test
    void usersAreNeverSharedBetweenClients() {
        for (int n = 1; n <= 7; n++) {
            FakeTradeSite site = new FakeTradeSite(50);
            TradeTraffic traffic = traffic("standard", 50);
            List<TradeSession> clients = new ArrayList<>();
            for (int c = 0; c < n; c++) {
                clients.add(session(traffic, c));
            }
            Map<String, Integer> driver = new HashMap<>();
            for (int i = 0; i < 3000; i++) {
                for (int c = 0; c < n; c++) {
                    TradeSession s = clients.get(c);
                    Request r = s.next();
                    if (kindOf(r) == PageKind.LOGIN) {
                        String user = s.userId();
                        Integer before = driver.putIfAbsent(user, c);
                        assertTrue(before == null || before == c, user + " driven by clients " + before + " and " + c);
                        if (user.startsWith("uid:")) {
                            assertEquals(c, Integer.parseInt(user.substring(4)) % n, user + " is not client " + c + "'s of " + n);
                        }
                    }
                    assertTrue(s.check(r, site.handle(r), false).ok());
                }
            }
            assertEquals(List.of(), site.violations, n + " clients");
            long populated = driver.keySet().stream().filter(u -> u.startsWith("uid:")).count();
            assertEquals(50, populated, n + " clients went through every user");
        }
    }

    // --- what a failed check says ---

    @Test
    void aRefusedLoginIsAFault() {
        TradeSession s = session(traffic("standard", 100), 0);
        Request login = s.next();
        Verdict v = s.check(login, FakeResponse.page(200, "<form>" + TradePages.LOGIN_ERROR + "no</p></form>"), false);
        assertEquals(ErrorKind.FAULT, v.kind());
        assertTrue(v.message().startsWith("login: uid:0 was refused"), v.message());
        assertEquals(PageKind.LOGIN, kindOf(s.next()));
    }

    @Test
    void aWrongStatusIsAnHttpStatusErrorNamingThePage() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic("standard", 100), 0);
        Request home = advanceTo(s, site, r -> kindOf(r) == PageKind.HOME && s.loggedIn());
        Verdict v = s.check(home, FakeResponse.page(500, TradePages.PROBLEM + "database down</p>"), false);
        assertEquals(ErrorKind.HTTP_STATUS, v.kind());
        assertEquals("home: status 500, expected 200 (database down)", v.message());

        TradeSession fresh = session(traffic("standard", 100), 1);
        Request login = fresh.next();
        Verdict notRedirected = fresh.check(login, FakeResponse.page(500, ""), false);
        assertEquals(ErrorKind.HTTP_STATUS, notRedirected.kind());
        assertEquals("login: status 500, expected 303 to /home", notRedirected.message());
    }

    @Test
    void missingMarkersAndAnotherUsersPageAreValidationErrors() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic("standard", 100), 0);
        Request home = advanceTo(s, site, r -> kindOf(r) == PageKind.HOME && s.loggedIn());
        Verdict noSummary = s.check(home, site.handle(home).replacing(TradePages.MARKET_SUMMARY, "<table>"), false);
        assertEquals(ErrorKind.VALIDATION, noSummary.kind());
        assertEquals("home: no " + TradePages.MARKET_SUMMARY, noSummary.message());

        Request portfolio = advanceTo(s, site, kind(PageKind.PORTFOLIO));
        Verdict otherUser = s.check(portfolio, site.handle(portfolio).replacing(TradePages.USER_OPEN, TradePages.USER_OPEN + "9"), false);
        assertEquals(ErrorKind.VALIDATION, otherUser.kind());
        assertTrue(otherUser.message().startsWith("portfolio: the page does not name its user"), otherUser.message());

        Request account = advanceTo(s, site, kind(PageKind.ACCOUNT));
        Verdict noProfile = s.check(account, site.handle(account).replacing(TradePages.PROFILE, "<form"), false);
        assertEquals(ErrorKind.VALIDATION, noProfile.kind());
    }

    @Test
    void aQuoteMustShowEverySymbolAskedAndDeeplyNothingElse() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic("standard", 100), 0);
        Request quote = advanceTo(s, site, kind(PageKind.QUOTE));
        FakeResponse answer = site.handle(quote);
        String first = quote.template().path(quote).split("=")[1].split(",")[0];
        Verdict missing = s.check(quote, answer.replacing("data-symbol=\"" + first + "\"", "data-symbol=\"s:59\""), false);
        assertEquals(ErrorKind.VALIDATION, missing.kind());
        assertEquals("quote: no quote of " + first, missing.message());

        Request again = advanceTo(s, site, kind(PageKind.QUOTE));
        FakeResponse extra = site.handle(again).replacing("<table>", "<table>" + TradePages.QUOTE_ROW + "s:59\"></tr>");
        assertTrue(s.check(again, extra, false).ok(), "the cheap check only looks for what was asked");
        Request third = advanceTo(s, site, kind(PageKind.QUOTE));
        Verdict deep = s.check(third, site.handle(third).replacing("<table>", "<table>" + TradePages.QUOTE_ROW + "s:59\"></tr>"), true);
        assertEquals(ErrorKind.VALIDATION, deep.kind());
        assertTrue(deep.message().contains("s:59"), deep.message());
    }

    @Test
    void anOrderMustBeForWhatWasAskedAndDeeplyOpenOrClosed() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic("standard", 100), 0);
        Request buy = advanceTo(s, site, kind(PageKind.BUY));
        FakeResponse answer = site.handle(buy);
        String quantity = site.seen.get(site.seen.size() - 1).form().get(TradePages.QUANTITY);
        Verdict wrongQuantity = s.check(buy, answer.replacing(TradePages.ORDER_QUANTITY_OPEN + quantity,
                TradePages.ORDER_QUANTITY_OPEN + "1" + quantity), false);
        assertEquals(ErrorKind.VALIDATION, wrongQuantity.kind());
        assertEquals("buy: the order's quantity is 1" + quantity + ", not " + quantity, wrongQuantity.message());

        Request other = advanceTo(s, site, kind(PageKind.BUY));
        Verdict wrongSymbol = s.check(other, site.handle(other).replacing(TradePages.ORDER_SYMBOL_OPEN + "s:",
                TradePages.ORDER_SYMBOL_OPEN + "s:7"), false);
        assertEquals(ErrorKind.VALIDATION, wrongSymbol.kind());
        assertTrue(wrongSymbol.message().startsWith("buy: the order is for s:7"), wrongSymbol.message());

        Request sell = advanceTo(s, site, kind(PageKind.SELL));
        FakeResponse cancelled = site.handle(sell).replacing(TradePages.ORDER_STATUS_OPEN + "closed",
                TradePages.ORDER_STATUS_OPEN + "cancelled");
        assertTrue(s.check(sell, cancelled, false).ok(), "the status is a deep check");
        Request sellAgain = advanceTo(s, site, kind(PageKind.SELL));
        Verdict deep = s.check(sellAgain, site.handle(sellAgain).replacing(TradePages.ORDER_STATUS_OPEN + "closed",
                TradePages.ORDER_STATUS_OPEN + "cancelled"), true);
        assertEquals(ErrorKind.VALIDATION, deep.kind());
        assertEquals("sell: the order's status is 'cancelled', expected open or closed", deep.message());
    }

    @Test
    void restQuotesMustBeAJsonArrayWithEverySymbol() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic("jmeter", 100), 0);
        Request rest = advanceTo(s, site, kind(PageKind.REST_QUOTES));
        assertNull(FakeTradeSite.header(rest, "Cookie"), "the REST service is called without the session");
        Verdict notArray = s.check(rest, site.handle(rest).replacing("[", "{\"quotes\":["), false);
        assertEquals(ErrorKind.VALIDATION, notArray.kind());
        assertEquals("rest-quotes: not a JSON array", notArray.message());
        Request again = advanceTo(s, site, kind(PageKind.REST_QUOTES));
        Verdict wrong = s.check(again, site.handle(again).replacing("\"s:", "\"s:9"), false);
        assertEquals(ErrorKind.VALIDATION, wrong.kind());
        assertTrue(wrong.message().startsWith("rest-quotes: no quote of s:"), wrong.message());
    }

    @Test
    void anUpdateMustShowTheNewFullName() {
        FakeTradeSite site = new FakeTradeSite(100);
        TradeSession s = session(traffic("standard", 100), 0);
        Request update = advanceTo(s, site, kind(PageKind.UPDATE));
        FakeResponse answer = site.handle(update);
        String name = site.seen.get(site.seen.size() - 1).form().get(TradePages.FULL_NAME);
        assertTrue(name.matches("first:\\d+ last:\\d+"), name);
        Verdict stale = s.check(update, answer.replacing(name, "first:x last:y"), false);
        assertEquals(ErrorKind.VALIDATION, stale.kind());
        assertTrue(stale.message().startsWith("update: the profile does not show the new full name"), stale.message());
        assertNotEquals(PageKind.LOGIN, kindOf(s.next()));
    }
}

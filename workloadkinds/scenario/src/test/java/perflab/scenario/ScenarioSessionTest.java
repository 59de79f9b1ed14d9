package perflab.scenario;

import org.junit.jupiter.api.Test;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.HeldResponse;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.Verdict;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A scenario's session step by step, fed with answers held in memory: what each request carries (variables in the
 * encoding of their place, the session's cookies), what passes its checks and what fails, and where a session goes
 * after a failure. The end-to-end test against a real server is cli's ScenarioIT.
 */
class ScenarioSessionTest {
    private static final Path SCENARIOS = Path.of(System.getProperty("perflab.home", "../..")).resolve("scenarios");

    private static ScenarioTraffic traffic(String yaml, String basePath) {
        return new ScenarioTraffic(ScenarioReader.fromText("t.yaml", yaml, SCENARIOS), basePath, null);
    }

    private static String path(Request r) {
        return r.template().path(r);
    }

    private static String body(Request r) {
        return new String(r.template().body(r), StandardCharsets.UTF_8);
    }

    private static String header(Request r, String name) {
        for (RequestTemplate.Header h : r.template().headers()) {
            if (h.name().equalsIgnoreCase(name)) {
                return new String(RequestTemplate.render(h.value(), r), StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    private static HeldResponse page(int status, String body, Map<String, List<String>> headers) {
        return new HeldResponse(status, headers, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theNotesScenarioLogsInCarriesItsCookieAndTheTokenAndReadsANoteItFound() {
        ScenarioTraffic t = new ScenarioTraffic(ScenarioReader.fromText("notes.yaml", read("notes.yaml"), SCENARIOS), "", "browse");
        ClientSession s = t.newSession(new ClientContext(3, 42, 10));
        Request login = s.next();
        assertEquals("login", login.template().kind());
        assertEquals("/login", path(login));
        assertEquals("user=reader3&password=secret", body(login), "client 3 takes row 3 of the data");
        assertEquals("application/x-www-form-urlencoded", header(login, "Content-Type"));
        assertEquals("", header(login, "Cookie"), "no cookie yet: the driver leaves the header out");
        assertTrue(s.check(login, page(303, "", Map.of("Set-Cookie", List.of("NOTESID=abc; Path=/; HttpOnly"),
                "Location", List.of("/notes"))), false).ok());

        Request list = s.next();
        assertEquals("list", list.template().kind());
        assertEquals("NOTESID=abc", header(list, "Cookie"));
        Verdict wrongUser = s.check(list, page(200, "<h1>Notes of reader4</h1>", Map.of()), false);
        assertEquals(ErrorKind.VALIDATION, wrongUser.kind(), "the check holds the session's own user");
        assertTrue(wrongUser.message().startsWith("list: the body lacks '<h1>Notes of reader3</h1>'"), wrongUser.message());

        Request again = s.next();
        assertEquals("list", again.template().kind(), "a failed step ends its transaction; the next one begins");
        assertTrue(s.check(again, page(200, "<h1>Notes of reader3</h1><table><tr><td class=\"id\">17</td></tr>"
                + "</table><input type=\"hidden\" name=\"csrf\" value=\"tok&amp;1\">", Map.of()), false).ok());
        Request view = s.next();
        assertEquals("/notes/17", path(view), "the one id found");
        assertFalse(s.check(view, page(200, "<p id=\"note\" data-id=\"18\">", Map.of()), false).ok());
    }

    @Test
    void aStepWhoseValueIsMissingIsSkippedAndAFailedLoginIsMadeAgain() {
        ScenarioTraffic t = traffic("""
                scenario: t
                once:
                  - {name: login, post: /login, form: {u: "${client}"}, check: {status: 303}}
                steps:
                  - {name: list, get: /list, extract: {id: {regex: 'id=(\\d+)', all: true, optional: true}}}
                  - {name: view, get: "/item/${id}", ifPresent: id}
                """, "/app/");
        ClientSession s = t.newSession(new ClientContext(0, 1, 1));
        Request login = s.next();
        assertEquals("/app/login", path(login), "the target's path comes first");
        Verdict refused = s.check(login, page(403, "no", Map.of()), false);
        assertEquals(ErrorKind.HTTP_STATUS, refused.kind());
        assertEquals("login: status 403, expected 303", refused.message());
        Request retry = s.next();
        assertEquals("login", retry.template().kind(), "a failed once step begins the session again");
        assertTrue(s.check(retry, page(303, "", Map.of()), false).ok());
        Request list = s.next();
        assertTrue(s.check(list, page(200, "nothing here", Map.of()), false).ok(), "optional: none is no error");
        assertEquals("list", s.next().template().kind(), "view is skipped while there is no id");
        s.check(list, page(200, "id=5 id=6", Map.of()), false);
        Request view = s.next();
        assertTrue(List.of("/app/item/5", "/app/item/6").contains(path(view)), path(view));
    }

    @Test
    void aSoldHoldingIsTakenOffTheListABuyComesOnlyWithNothingToSellAndALogoutEndsTheSession() {
        ScenarioTraffic t = traffic("""
                scenario: t
                variables: {users: {csv: notes-users.csv}}
                once:
                  - {name: login, post: /login, form: {u: "${users.user}"}, set: {me: "${users.user}"}}
                mix:
                  - name: sell
                    steps:
                      - {name: portfolio, get: /portfolio, ifAbsent: holding,
                         extract: {holding: {regex: 'h=(\\d+)', all: true, optional: true}}}
                      - {name: buy, post: /buy, ifAbsent: holding, form: {s: x}}
                      - {name: sell, post: /sell, ifPresent: holding, consume: holding, form: {h: "${holding}"},
                         check: {contains: "${me}"}}
                  - name: register
                    weight: 0.000001
                    steps:
                      - {name: register, post: /register, form: {u: "r${seed}"}, set: {me: "r${seed}", holding: null}}
                  - name: leave
                    weight: 0.000001
                    endsSession: true
                    steps: [{name: logout, post: /logout}]
                """, "");
        ClientSession s = t.newSession(new ClientContext(0, 35, 1));
        Request login = s.next();
        assertTrue(s.check(login, page(303, "", Map.of()), false).ok());
        Request look = s.next();
        assertEquals("portfolio", look.template().kind(), "no holding known: a look first");
        assertTrue(s.check(look, page(200, "h=5 h=6", Map.of()), false).ok());
        java.util.Set<String> sold = new java.util.HashSet<>();
        for (int i = 0; i < 2; i++) {
            Request sell = s.next();
            assertEquals("sell", sell.template().kind(), "a holding known: no look, no buy");
            sold.add(body(sell));
            assertTrue(s.check(sell, page(200, "order of reader0", Map.of()), false).ok(), "${me} is the user set at login");
        }
        assertEquals(java.util.Set.of("h=5", "h=6"), sold, "each holding sold once");
        Request look2 = s.next();
        assertEquals("portfolio", look2.template().kind(), "both sold: a look again");
        assertTrue(s.check(look2, page(200, "none", Map.of()), false).ok());
        Request buy = s.next();
        assertEquals("buy", buy.template().kind(), "nothing to sell: a buy instead");
        assertTrue(s.check(buy, page(200, "ok", Map.of()), false).ok());
        assertEquals("portfolio", s.next().template().kind(), "the sell after the buy is skipped; the next errand begins");

        // the same steps by hand, the other transactions: a register changes ${me}, a logout begins a new session
        ScenarioTraffic only = new ScenarioTraffic(t.scenario, "", "register");
        ClientSession r = only.newSession(new ClientContext(0, 35, 1));
        assertTrue(r.check(r.next(), page(303, "", Map.of()), false).ok());
        Request register = r.next();
        assertEquals("u=r" + Long.toUnsignedString(35, 36), body(register), "${seed}: the client's seed in base 36");
        assertTrue(r.check(register, page(303, "", Map.of()), false).ok());
        ScenarioTraffic leave = new ScenarioTraffic(t.scenario, "", "leave");
        ClientSession l = leave.newSession(new ClientContext(0, 35, 1));
        Request first = l.next();
        assertEquals("u=reader0", body(first));
        assertTrue(l.check(first, page(303, "", Map.of()), false).ok());
        Request logout = l.next();
        assertFalse(l.check(logout, page(500, "", Map.of()), false).ok());
        Request next = l.next();
        assertEquals("login", next.template().kind(), "a failed logout ends the session all the same");
        assertEquals("u=reader1", body(next), "the next session takes the next row");
    }

    @Test
    void aPathWithAVariableIsMatchedAgainstTheCookiesAsSent() {
        ScenarioTraffic t = traffic("""
                scenario: t
                steps:
                  - {name: start, get: /examples/start, extract: {link: {regex: 'href="([^"]+)"'}}}
                  - {name: follow, get: "${link}"}
                  - {name: item, get: "/items/${n}"}
                variables: {n: {value: "42"}}
                """, "");
        ClientSession s = t.newSession(new ClientContext(0, 1, 1));
        Request start = s.next();
        assertTrue(s.check(start, page(200, "<a href=\"/examples/next?x=1\">", Map.of("Set-Cookie",
                List.of("JSESSIONID=e1; Path=/examples", "ITEM=i42; Path=/items/42"))), false).ok());
        Request follow = s.next();
        assertEquals("/examples/next?x=1", path(follow));
        assertEquals("JSESSIONID=e1", header(follow, "Cookie"), "a link taken from a page carries the cookies of its path");
        assertTrue(s.check(follow, page(200, "", Map.of()), false).ok());
        Request item = s.next();
        assertEquals("ITEM=i42", header(item, "Cookie"), "an id in the path counts for the cookie's path");
    }

    @Test
    void variablesAreEscapedForTheirPlace() {
        ScenarioTraffic t = traffic("""
                scenario: t
                variables:
                  word: {value: 'a b&c"<d>/'}
                  n: {counter: 7}
                steps:
                  - post: "/q/${word}?w=${word}&n=${n}"
                    headers: {X-Word: "${word}"}
                    json: {w: "${word}", n: "${n}"}
                  - post: /x
                    body: "<w>${word}</w>"
                    contentType: application/soap+xml
                  - post: /f
                    form: {"a b": "${word}"}
                """, "");
        ClientSession s = t.newSession(new ClientContext(0, 1, 1));
        Request r = s.next();
        assertEquals("/q/a%20b%26c%22%3Cd%3E%2F?w=a%20b%26c%22%3Cd%3E%2F&n=7", path(r));
        assertEquals("a b&c\"<d>/", header(r, "X-Word"));
        assertEquals("{\"w\":\"a b&c\\\"<d>/\",\"n\":\"7\"}", body(r));
        s.check(r, page(200, "", Map.of()), false);
        Request x = s.next();
        assertEquals("<w>a b&amp;c&quot;&lt;d&gt;/</w>", body(x));
        s.check(x, page(200, "", Map.of()), false);
        Request f = s.next();
        assertEquals("a+b=a+b%26c%22%3Cd%3E%2F", body(f));
        s.check(f, page(200, "", Map.of()), false);
        assertEquals("/q/a%20b%26c%22%3Cd%3E%2F?w=a%20b%26c%22%3Cd%3E%2F&n=8", path(s.next()), "the counter counts per request");
    }

    @Test
    void jsonXPathAndHeaderExtractionsAndChecks() {
        ScenarioTraffic t = traffic("""
                scenario: t
                steps:
                  - get: /token
                    extract:
                      token: {json: /auth/token}
                      where: {header: Location}
                    check: {json: {pointer: /auth/user, equals: ann}}
                  - get: /soap
                    headers: {Authorization: "Bearer ${token}"}
                    extract:
                      ret: {xpath: "//*[local-name()='return']"}
                    check: {header: {name: Content-Type, contains: xml}}
                  - get: /echo?v=${ret}
                    deepCheck: {contains: "${ret}"}
                """, "");
        ClientSession s = t.newSession(new ClientContext(0, 1, 1));
        Request a = s.next();
        assertTrue(s.check(a, page(200, "{\"auth\":{\"user\":\"ann\",\"token\":\"t-1\"}}", Map.of("Location", List.of("/x"))), false).ok());
        Request b = s.next();
        assertEquals("Bearer t-1", header(b, "Authorization"));
        assertTrue(s.check(b, page(200, "<e xmlns:n=\"urn:x\"><n:return>42</n:return></e>",
                Map.of("Content-Type", List.of("text/xml"))), false).ok());
        Request c = s.next();
        assertEquals("/echo?v=42", path(c));
        assertTrue(s.check(c, page(200, "nothing", Map.of()), false).ok(), "a deep check only on the sample");
        s.next();
        s.next();
        Request c2 = s.next();
        Verdict deep = s.check(c2, page(200, "nothing", Map.of()), true);
        assertEquals(ErrorKind.VALIDATION, deep.kind(), String.valueOf(deep));
    }

    @Test
    void rangesPicksThinkTimesNegatedChecksAndTheResendMark() {
        ScenarioTraffic t = traffic("""
                scenario: t
                variables:
                  q: {range: [5, 7]}
                  w: {oneOf: [a, b]}
                mix:
                  - name: one
                    steps:
                      - {get: "/r/${q}/${w}", think: {uniform: [10ms, 20ms]}, check: {notRegex: 'error \\d+'}, resend: false}
                  - name: two
                    weight: 3
                    steps:
                      - {get: /two, think: {exponential: 50ms}}
                """, "");
        assertEquals(List.of("GET /r/{q}/{w}", "GET /two"), t.requestKinds());
        assertFalse(t.transactions.get(0).get(0).template.resendable(), "resend: false reaches the driver's template");
        assertTrue(t.transactions.get(1).get(0).template.resendable());
        ClientSession s = t.newSession(new ClientContext(0, 7, 1));
        java.util.Set<String> paths = new java.util.TreeSet<>();
        int ones = 0;
        for (int i = 0; i < 400; i++) {
            Request r = s.next();
            if (r.template().kind().equals("GET /two")) {
                assertTrue(r.thinkNanos() >= 0 && r.thinkNanos() <= 500_000_000L, "capped at 10x the mean: " + r.thinkNanos());
                assertTrue(s.check(r, page(200, "fine", Map.of()), false).ok());
                continue;
            }
            ones++;
            paths.add(path(r));
            assertTrue(r.thinkNanos() >= 10_000_000L && r.thinkNanos() <= 20_000_000L, String.valueOf(r.thinkNanos()));
            Verdict v = s.check(r, page(200, i % 2 == 0 ? "fine" : "error 500", Map.of()), false);
            assertEquals(i % 2 == 0, v.ok(), String.valueOf(v));
        }
        assertEquals(java.util.Set.of("/r/5/a", "/r/5/b", "/r/6/a", "/r/6/b", "/r/7/a", "/r/7/b"), paths);
        assertTrue(ones > 50 && ones < 150, "weights 1 and 3: about a quarter, " + ones);
        ScenarioTraffic onlyTwo = new ScenarioTraffic(ScenarioReader.fromText("t.yaml", """
                scenario: t
                mix:
                  - {name: one, steps: [{get: /one}]}
                  - {name: two, steps: [{get: /two}]}
                """, SCENARIOS), "", "two");
        ClientSession two = onlyTwo.newSession(new ClientContext(0, 1, 1));
        for (int i = 0; i < 20; i++) {
            Request r = two.next();
            assertEquals("/two", path(r), "--operation two drives that transaction alone");
            two.check(r, page(200, "", Map.of()), false);
        }
    }

    @Test
    void anXmlAnswerWithADoctypeIsRefusedNotRead() {
        ScenarioTraffic t = traffic("""
                scenario: t
                steps:
                  - {get: /, extract: {v: {xpath: "//a"}}}
                """, "");
        ClientSession s = t.newSession(new ClientContext(0, 1, 1));
        Request r = s.next();
        Verdict v = s.check(r, page(200, "<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><a>&x;</a>",
                Map.of()), false);
        assertEquals(ErrorKind.VALIDATION, v.kind());
        assertTrue(v.message().contains("not XML"), v.message());
    }

    @Test
    void moreClientsThanRowsIsRefused() {
        ScenarioTraffic t = new ScenarioTraffic(ScenarioReader.fromText("notes.yaml", read("notes.yaml"), SCENARIOS), "", null);
        String message = assertThrows(IllegalArgumentException.class, () -> t.newSession(new ClientContext(0, 1, 201)))
                .getMessage();
        assertTrue(message.contains("201 clients but") && message.contains("has 200 rows"), message);
    }

    private static String read(String name) {
        try {
            return java.nio.file.Files.readString(SCENARIOS.resolve(name));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

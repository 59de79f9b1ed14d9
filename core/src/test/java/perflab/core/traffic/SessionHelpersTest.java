package perflab.core.traffic;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SessionHelpersTest {
    private static String text(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    @Test
    void cookieJarKeepsPathsAndExpiry() {
        AtomicLong now = new AtomicLong(1_000_000);
        CookieJar jar = new CookieJar(now::get);
        jar.receive(page("", "session=abc; Path=/; HttpOnly", "cart=1; Path=/shop; Max-Age=10",
                "pref=x", "gone=1; Max-Age=0", "bad", "old=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT"), "/shop/list?page=2");
        assertEquals("session=abc", text(jar.header("/")));
        assertEquals("cart=1; pref=x; session=abc", text(jar.header("/shop/item")), "longer paths first; pref's default path is /shop");
        assertEquals("session=abc", text(jar.header("/shopping")), "/shop does not match /shopping");
        byte[] cached = jar.header("/shopping");
        assertSame(cached, jar.header("/shopping"), "the header is not rebuilt while nothing changed");
        now.addAndGet(10_000);
        assertEquals("pref=x; session=abc", text(jar.header("/shop/item")), "cart expired after Max-Age 10 s");
        jar.receive("session=def; Path=/", "/login");
        assertEquals("def", jar.value("session"));
        jar.receive("session=; Max-Age=-1; Path=/", "/logout");
        assertNull(jar.value("session"));
        jar.clear();
        assertEquals(0, jar.header("/").length);
    }

    @Test
    void weightedMixFollowsItsWeightsAndRepeatsWithTheSeed() {
        WeightedMix<String> mix = WeightedMix.<String>builder().add("page", 6).add("operation", 3).add("mediation", 1).build();
        Map<String, Integer> counts = new HashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            counts.merge(mix.pick(random), 1, Integer::sum);
        }
        assertEquals(0.6, counts.get("page") / 100_000.0, 0.01);
        assertEquals(0.3, counts.get("operation") / 100_000.0, 0.01);
        assertEquals(0.1, counts.get("mediation") / 100_000.0, 0.01);
        SplittableRandom a = new SplittableRandom(3);
        SplittableRandom b = new SplittableRandom(3);
        for (int i = 0; i < 100; i++) {
            assertSame(mix.pick(a), mix.pick(b));
        }
        assertThrows(IllegalArgumentException.class, () -> WeightedMix.builder().add("x", 0));
        assertThrows(IllegalArgumentException.class, () -> WeightedMix.builder().build());
    }

    @Test
    void extractsFormInputsMarkersAndJsonFields() {
        HeldResponse page = page("<html><form><input type='text' name='user' value='ann'>"
                + "<INPUT type=\"hidden\" value=\"a&amp;b&#47;c\" name=\"csrf\"/><td class=id>4711</td></form></html>");
        assertEquals("a&b/c", HtmlExtract.inputValue(page, "csrf"));
        assertEquals("ann", HtmlExtract.inputValue(page, "user"));
        assertNull(HtmlExtract.inputValue(page, "missing"));
        assertEquals("4711", page.textBetween("<td class=id>".getBytes(StandardCharsets.US_ASCII),
                "</td>".getBytes(StandardCharsets.US_ASCII), 0));

        HeldResponse json = page("{\"label\": \"id\", \"order\": {\"id\" : 42, \"note\": \"say \\\"hi\\\"\\n\"}, \"ok\":true}");
        assertEquals("42", JsonExtract.field(json, "id"), "a value \"id\" is not the field id");
        assertEquals("say \"hi\"\n", JsonExtract.field(json, "note"));
        assertEquals("true", JsonExtract.field(json, "ok"));
        assertNull(JsonExtract.field(json, "order"));
        assertNull(JsonExtract.field(json, "absent"));
    }

    @Test
    void urlAndFormEncoding() {
        assertEquals("a%20b%26c%3D%C3%BC~", text(UrlEncoding.component("a b&c=ü~")));
        assertEquals("a+b%26c", text(UrlEncoding.formValue("a b&c")));
        assertEquals("user=ann+lee&csrf=x%2By", text(UrlEncoding.form("user", "ann lee", "csrf", "x+y")));
        assertThrows(IllegalArgumentException.class, () -> UrlEncoding.form("odd"));
    }

    @Test
    void templateSlotsParseAndRender() {
        RequestTemplate t = RequestTemplate.builder("buy", "POST").path("/buy/${account}?s=${symbol}")
                .header("Cookie", "${cookie}").body("{\"price\": \"$${x}\", \"id\": ${id:6}, \"n\": ${n}}").build();
        assertEquals(List.of("account", "symbol", "cookie", "id", "n"), t.slots().stream().map(RequestTemplate.Slot::name).toList());
        assertEquals(6, t.slots().get(t.slot("id")).width());
        assertTrue(t.hasIdSlot());
        Request r = Request.of(t, 42).set("account", 7).set("symbol", UrlEncoding.component("A B")).set("n", -12)
                .thinkTime(Duration.ofMillis(250));
        assertEquals("/buy/7?s=A%20B", t.path(r));
        assertEquals("{\"price\": \"${x}\", \"id\": 000042, \"n\": -12}", new String(t.body(r), StandardCharsets.UTF_8));
        assertEquals(250_000_000L, r.thinkNanos());
        assertEquals(42, r.id());
        assertEquals(t.slot("cookie"), t.headers().get(0).optionalSlot(), "a header that is one slot is left out when empty");

        assertThrows(IllegalArgumentException.class, () -> r.set("id", 1_000_000), "7 digits in a 6-digit slot");
        assertThrows(IllegalArgumentException.class, () -> r.set("id", "text"), "text in a numeric slot");
        assertThrows(IllegalArgumentException.class, () -> r.set("nope", 1));
        assertThrows(IllegalArgumentException.class, () -> RequestTemplate.builder("x", "GET").path("/${open").build());
        assertThrows(IllegalArgumentException.class, () -> RequestTemplate.builder("x", "GET").path("/${a:0}").build());
        assertThrows(IllegalArgumentException.class, () -> RequestTemplate.builder("x", "get"));
        assertThrows(IllegalArgumentException.class, () -> RequestTemplate.builder("x", "GET").path("/").header("Bad Name", "v"));

        RequestTemplate legacy = RequestTemplate.withIdSlot("echo", "POST", "/e", List.of(), "<id>", "</id>");
        assertArrayEquals("<id>0000000099</id>".getBytes(StandardCharsets.US_ASCII), legacy.body(Request.of(legacy, 99)));
        assertEquals(19, legacy.bodyLength());
    }

    /** A page with {@code setCookies} as its Set-Cookie headers. */
    private static HeldResponse page(String body, String... setCookies) {
        return new HeldResponse(200, java.util.Map.of("set-cookie", java.util.List.of(setCookies)),
                body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}

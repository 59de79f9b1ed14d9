package perflab.driver;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EncodedRequestTest {
    @Test
    void h2cHeadersAreBuiltOnceWhenNothingInTheHeadVaries() {
        RequestTemplate t = RequestTemplate.withIdSlot("echo", "POST", "/svc",
                List.of(new RequestTemplate.Header("Content-Type", "text/xml"), new RequestTemplate.Header("Connection", "keep-alive"),
                        new RequestTemplate.Header("Content-Length", "999"), new RequestTemplate.Header("SOAPAction", "\"\"")),
                "<id>", "</id>");
        EncodedRequest e = new EncodedRequest(t, "localhost:8080", 0);
        io.netty.handler.codec.http2.Http2Headers h = e.h2Headers(Request.of(t, 1));
        assertSame(h, e.h2Headers(Request.of(t, 2)));
        assertEquals("POST", h.method().toString());
        assertEquals("/svc", h.path().toString());
        assertEquals("http", h.scheme().toString());
        assertEquals("localhost:8080", h.authority().toString());
        assertEquals("text/xml", h.get("content-type").toString());
        assertEquals("\"\"", h.get("soapaction").toString());
        assertEquals("19", h.get("content-length").toString());
        assertEquals(null, h.get("connection"));

        ByteBuf body = Unpooled.buffer();
        e.writeBody(body, Request.of(t, 42));
        assertEquals("<id>0000000042</id>", body.toString(StandardCharsets.US_ASCII));
        assertEquals(19, e.bodyLength(Request.of(t, 42)));
    }

    @Test
    void writesTheRequestWithIdHeaderSlotAndClose() {
        RequestTemplate t = RequestTemplate.builder("echo", "POST").path("/svc").header("Content-Type", "text/xml")
                .header("Content-Length", "999").header("Cookie", "${cookie}").body("<id>${id:10}</id>").build();
        EncodedRequest e = new EncodedRequest(t, "localhost:8080", 0);
        Request r = Request.of(t, 42).set("cookie", "s=1");
        ByteBuf out = Unpooled.buffer();
        int n = e.write(out, r, true);
        String wire = out.toString(StandardCharsets.ISO_8859_1);
        assertEquals("POST /svc HTTP/1.1\r\nHost: localhost:8080\r\nContent-Type: text/xml\r\nCookie: s=1\r\n"
                + "Content-Length: 19\r\nConnection: close\r\n\r\n<id>0000000042</id>", wire);
        assertEquals(wire.length(), n);
        assertTrue(n <= e.sizeFor(r));

        out.clear();
        e.write(out, Request.of(t, 7), false);
        String noCookie = out.toString(StandardCharsets.ISO_8859_1);
        assertTrue(noCookie.endsWith("19\r\n\r\n<id>0000000007</id>"), noCookie);
        assertFalse(noCookie.contains("Cookie"), "an empty header slot leaves its header out: " + noCookie);
    }

    @Test
    void getWithoutBodyHasNoContentLength() {
        RequestTemplate t = RequestTemplate.fixed("wsdl", "GET", "/svc?wsdl", List.of(), null);
        ByteBuf out = Unpooled.buffer();
        new EncodedRequest(t, "h", 0).write(out, Request.of(t, 0), false);
        assertEquals("GET /svc?wsdl HTTP/1.1\r\nHost: h\r\n\r\n", out.toString(StandardCharsets.ISO_8859_1));
    }

    @Test
    void cacheEncodesEachTemplateOnceAndKnowsItsKind() {
        RequestTemplate a = RequestTemplate.fixed("a", "GET", "/a", List.of(), null);
        RequestTemplate b = RequestTemplate.fixed("b", "GET", "/b", List.of(), null);
        RequestTemplate c = RequestTemplate.fixed("c", "GET", "/c", List.of(), null);
        EncodedRequest.Cache cache = new EncodedRequest.Cache("h", new RequestKinds(List.of("b", "a")));
        EncodedRequest ea = cache.get(a);
        assertEquals(0, cache.get(b).kind);
        assertSame(ea, cache.get(a));
        assertEquals(1, ea.kind);
        assertEquals(2, cache.get(c).kind, "a kind the traffic did not list counts as (none)");
    }

    @Test
    void slotsInPathHeadersAndBodyWithContentLengthPerRequest() {
        RequestTemplate t = RequestTemplate.builder("buy", "POST").path("/buy/${account}?symbol=${symbol}")
                .header("X-Token", "t-${token}").header("Content-Type", "application/x-www-form-urlencoded")
                .body("csrf=${csrf}&qty=${qty}&ref=${ref:4}").build();
        EncodedRequest e = new EncodedRequest(t, "h", 0);
        Request r = new Request(t).set("account", 17).set("symbol", "A B".replace(" ", "%20")).set("token", "xyz")
                .set("csrf", "tok").set("qty", -5).set("ref", 42);
        ByteBuf out = Unpooled.buffer();
        int n = e.write(out, r, false);
        String body = "csrf=tok&qty=-5&ref=0042";
        assertEquals("POST /buy/17?symbol=A%20B HTTP/1.1\r\nHost: h\r\nX-Token: t-xyz\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length() + "\r\n\r\n"
                + body, out.toString(StandardCharsets.ISO_8859_1));
        assertTrue(n <= e.sizeFor(r));
        assertEquals(body.length(), e.bodyLength(r));

        io.netty.handler.codec.http2.Http2Headers h = e.h2Headers(r);
        assertEquals("/buy/17?symbol=A%20B", h.path().toString());
        assertEquals("t-xyz", h.get("x-token").toString());
        assertEquals(String.valueOf(body.length()), h.get("content-length").toString());
        r.set("csrf", "longer-token");
        io.netty.handler.codec.http2.Http2Headers h2 = e.h2Headers(r);
        assertEquals(String.valueOf(body.length() + 9), h2.get("content-length").toString());
        ByteBuf data = Unpooled.buffer();
        e.writeBody(data, r);
        assertEquals("csrf=longer-token&qty=-5&ref=0042", data.toString(StandardCharsets.US_ASCII));
    }
}

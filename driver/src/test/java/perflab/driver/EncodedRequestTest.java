package perflab.driver;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EncodedRequestTest {
    @Test
    void h2cHeadersAreBuiltOnceAndPerClientHeadersGoIntoACopy() {
        RequestTemplate t = RequestTemplate.withIdSlot("echo", "POST", "/svc",
                List.of(new RequestTemplate.Header("Content-Type", "text/xml"), new RequestTemplate.Header("Connection", "keep-alive"),
                        new RequestTemplate.Header("Content-Length", "999"), new RequestTemplate.Header("SOAPAction", "\"\"")),
                "<id>", "</id>");
        EncodedRequest e = new EncodedRequest(t, "localhost:8080");
        io.netty.handler.codec.http2.Http2Headers h = e.h2Headers(new Request(t, 1));
        assertSame(h, e.h2Headers(new Request(t, 2)));
        assertEquals("POST", h.method().toString());
        assertEquals("/svc", h.path().toString());
        assertEquals("http", h.scheme().toString());
        assertEquals("localhost:8080", h.authority().toString());
        assertEquals("text/xml", h.get("content-type").toString());
        assertEquals("\"\"", h.get("soapaction").toString());
        assertEquals("19", h.get("content-length").toString());
        assertEquals(null, h.get("connection"));

        io.netty.handler.codec.http2.Http2Headers withCookie = e.h2Headers(new Request(t, 3,
                List.of(new RequestTemplate.Header("Cookie", "s=1"))));
        assertEquals("s=1", withCookie.get("cookie").toString());
        assertEquals("POST", withCookie.method().toString());
        assertEquals(null, h.get("cookie"));

        ByteBuf body = Unpooled.buffer();
        e.writeBody(body, new Request(t, 42));
        assertEquals("<id>0000000042</id>", body.toString(StandardCharsets.US_ASCII));
        assertEquals(19, e.bodyLength());
    }

    @Test
    void writesTheRequestWithIdExtraHeadersAndClose() {
        RequestTemplate t = RequestTemplate.withIdSlot("echo", "POST", "/svc",
                List.of(new RequestTemplate.Header("Content-Type", "text/xml"), new RequestTemplate.Header("Content-Length", "999")),
                "<id>", "</id>");
        EncodedRequest e = new EncodedRequest(t, "localhost:8080");
        Request r = new Request(t, 42, List.of(new RequestTemplate.Header("Cookie", "s=1")));
        ByteBuf out = Unpooled.buffer();
        int n = e.write(out, r, true);
        String wire = out.toString(StandardCharsets.ISO_8859_1);
        assertEquals("POST /svc HTTP/1.1\r\nHost: localhost:8080\r\nContent-Type: text/xml\r\nContent-Length: 19\r\n"
                + "Cookie: s=1\r\nConnection: close\r\n\r\n<id>0000000042</id>", wire);
        assertEquals(wire.length(), n);
        assertTrue(n <= e.sizeFor(r));

        out.clear();
        e.write(out, new Request(t, 7), false);
        assertTrue(out.toString(StandardCharsets.ISO_8859_1).endsWith("19\r\n\r\n<id>0000000007</id>"));
    }

    @Test
    void getWithoutBodyHasNoContentLength() {
        RequestTemplate t = RequestTemplate.fixed("wsdl", "GET", "/svc?wsdl", List.of(), null);
        ByteBuf out = Unpooled.buffer();
        new EncodedRequest(t, "h").write(out, new Request(t, 0), false);
        assertEquals("GET /svc?wsdl HTTP/1.1\r\nHost: h\r\n\r\n", out.toString(StandardCharsets.ISO_8859_1));
    }

    @Test
    void cacheEncodesEachTemplateOnce() {
        RequestTemplate a = RequestTemplate.fixed("a", "GET", "/a", List.of(), null);
        RequestTemplate b = RequestTemplate.fixed("b", "GET", "/b", List.of(), null);
        EncodedRequest.Cache cache = new EncodedRequest.Cache("h");
        EncodedRequest ea = cache.get(a);
        cache.get(b);
        assertSame(ea, cache.get(a));
        ea.successes[MeasurementWindow.MEASURE] = 3;
        assertEquals(3L, cache.successesByKind().get("a"));
    }
}

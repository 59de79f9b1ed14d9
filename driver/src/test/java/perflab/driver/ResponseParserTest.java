package perflab.driver;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResponseParserTest {
    private static final String FIXED = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nSet-Cookie: a=1\r\n"
            + "content-length: 12\r\nset-cookie: b=2\r\n\r\nidout=000042";
    private static final String CHUNKED = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "4;ext=1\r\nidou\r\n3\r\nt=0\r\n5\r\n00042\r\n0\r\nX-Trailer: t\r\n\r\n";

    private static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /** Feeds the response in two parts split at every position, as reads would deliver it. */
    private static void everySplit(String response, java.util.function.Consumer<ResponseParser> check) {
        for (int split = 0; split <= response.length(); split++) {
            ResponseParser p = new ResponseParser();
            p.reset(false);
            ByteBuf buf = Unpooled.buffer(response.length());
            buf.writeBytes(response.substring(0, split).getBytes(StandardCharsets.ISO_8859_1));
            int r = p.parse(buf);
            if (split < response.length()) {
                assertEquals(ResponseParser.NEED_MORE, r, "split at " + split);
                buf.writeBytes(response.substring(split).getBytes(StandardCharsets.ISO_8859_1));
                r = p.parse(buf);
            }
            assertEquals(ResponseParser.COMPLETE, r, "split at " + split + ": " + p.error());
            assertEquals(response.length(), p.length());
            check.accept(p);
        }
    }

    @Test
    void contentLengthBodyIsReadInPlace() {
        everySplit(FIXED, p -> {
            assertEquals(200, p.status());
            assertEquals(12, p.bodyLength());
            assertEquals("idout=000042", p.bodyText());
            assertEquals(0, p.indexOf("idout=".getBytes(), 0));
            assertEquals(42, p.decimalAt(6));
            assertEquals("text/xml", p.header("CONTENT-TYPE"));
            assertEquals(List.of("a=1", "b=2"), p.headers("Set-Cookie"));
            assertNull(p.header("X-Missing"));
            assertFalse(p.closeAfter());
        });
    }

    @Test
    void chunkedBodyIsStitchedAcrossChunks() {
        everySplit(CHUNKED, p -> {
            assertEquals(12, p.bodyLength());
            assertEquals("idout=000042", p.bodyText());
            assertEquals(0, p.indexOf("idout=".getBytes(), 0));
            assertEquals(3, p.indexOf("ut=0".getBytes(), 0));
            assertEquals(42, p.decimalAt(6));
            assertEquals((byte) '4', p.bodyByte(10));
            assertEquals((byte) 'i', p.bodyByte(0));
        });
    }

    @Test
    void connectionCloseAndHttp10AreHonoured() {
        ResponseParser p = new ResponseParser();
        p.reset(false);
        assertEquals(ResponseParser.COMPLETE, p.parse(bytes("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")));
        assertTrue(p.closeAfter());
        p.reset(false);
        assertEquals(ResponseParser.COMPLETE, p.parse(bytes("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")));
        assertTrue(p.closeAfter());
        p.reset(false);
        assertEquals(ResponseParser.COMPLETE, p.parse(bytes("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n")));
        assertFalse(p.closeAfter());
    }

    @Test
    void bodyWithoutLengthEndsAtClose() {
        ResponseParser p = new ResponseParser();
        p.reset(false);
        ByteBuf buf = bytes("HTTP/1.1 200 OK\r\n\r\nidout=7");
        assertEquals(ResponseParser.NEED_MORE, p.parse(buf));
        assertTrue(p.readsUntilClose());
        assertEquals(ResponseParser.COMPLETE, p.finishOnClose(buf));
        assertEquals("idout=7", p.bodyText());
        assertTrue(p.closeAfter());
    }

    @Test
    void noBodyForHeadAnd204() {
        ResponseParser p = new ResponseParser();
        p.reset(true);
        assertEquals(ResponseParser.COMPLETE, p.parse(bytes("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n")));
        assertEquals(0, p.bodyLength());
        p.reset(false);
        assertEquals(ResponseParser.COMPLETE, p.parse(bytes("HTTP/1.1 204 No Content\r\n\r\n")));
    }

    @Test
    void garbageIsAnError() {
        for (String garbage : List.of("garbage\r\n\r\n", "HTTP/1.1 2x0 OK\r\n\r\n", "SMTP ready\r\n",
                "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXX",
                "HTTP/1.1 100 Continue\r\n\r\n", "HTTP/2.0 200 OK\r\n\r\n")) {
            ResponseParser p = new ResponseParser();
            p.reset(false);
            assertEquals(ResponseParser.ERROR, p.parse(bytes(garbage)), garbage);
            assertTrue(p.error() != null && !p.error().isEmpty());
        }
    }

    @Test
    void endlessHeadIsAnError() {
        ResponseParser p = new ResponseParser();
        p.reset(false);
        ByteBuf buf = Unpooled.buffer();
        buf.writeBytes("HTTP/1.1 200 OK\r\n".getBytes());
        int r = ResponseParser.NEED_MORE;
        for (int i = 0; i < 10_000 && r == ResponseParser.NEED_MORE; i++) {
            buf.writeBytes("X-Padding: 0123456789\r\n".getBytes());
            r = p.parse(buf);
        }
        assertEquals(ResponseParser.ERROR, r);
    }

    @Test
    void parsingStartsAtTheReaderIndex() {
        ResponseParser p = new ResponseParser();
        p.reset(false);
        ByteBuf buf = bytes("JUNK" + FIXED);
        buf.skipBytes(4);
        assertEquals(ResponseParser.COMPLETE, p.parse(buf));
        assertEquals(42, p.decimalAt(6));
    }
}

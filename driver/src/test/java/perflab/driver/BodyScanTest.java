package perflab.driver;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BodyScanTest {
    private static int find(String body, String needle, int from) {
        // the body sits inside a larger buffer, as in a read that holds the head before it and more after it
        ByteBuf buf = Unpooled.directBuffer().writeBytes(("HEAD" + body + "TAIL").getBytes(StandardCharsets.US_ASCII));
        try {
            return BodyScan.indexOf(buf, 4, body.length(), needle.getBytes(StandardCharsets.US_ASCII), from);
        } finally {
            buf.release();
        }
    }

    @Test
    void findsTheNeedleRelativeToTheBody() {
        assertEquals(0, find("idout=5", "idout=", 0));
        assertEquals(3, find("<a>idout=5</a>", "idout=", 0));
        assertEquals(2, find("ididout=5", "idout=", 0), "a partial match first, then the real one");
        assertEquals(4, find("abcdxyz", "xyz", 0), "at the very end of the body");
        assertEquals(-1, find("abcdxy", "xyz", 0), "cut off by the body's end, though the buffer goes on");
        assertEquals(-1, find("abc", "abcd", 0), "longer than the body");
        assertEquals(6, find("xyzabcxyz", "xyz", 1), "from a later index");
        assertEquals(-1, find("TAILTAIL", "HEAD", 0), "nothing outside the body is searched");
    }
}

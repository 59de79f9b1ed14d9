package perflab.driver;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Headers;
import perflab.core.traffic.ResponseView;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One h2c response as the traffic sees it: the status from {@code :status}, the decoded header block, and
 * the body, which is the stream's only DATA frame read in place or, when the body came in several frames,
 * the client's aggregate of them. Valid only during {@code ClientSession.check}; one instance per connection,
 * reused for every stream.
 */
final class H2Response implements ResponseView {
    private Http2Headers headers;
    private int status;
    private ByteBuf body;
    private int start;
    private int length;

    H2Response set(Http2Headers headers, int status, ByteBuf body) {
        this.headers = headers;
        this.status = status;
        this.body = body;
        this.start = body == null ? 0 : body.readerIndex();
        this.length = body == null ? 0 : body.readableBytes();
        return this;
    }

    void clear() {
        headers = null;
        body = null;
        length = 0;
    }

    /** The numeric {@code :status}, or 0 when it is missing or not three digits. */
    static int status(Http2Headers headers) {
        CharSequence s = headers.status();
        if (s == null || s.length() != 3) {
            return 0;
        }
        int v = 0;
        for (int i = 0; i < 3; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return 0;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public String header(String name) {
        CharSequence v = headers == null ? null : headers.get(name.toLowerCase(Locale.ROOT));
        return v == null ? null : v.toString();
    }

    @Override
    public List<String> headers(String name) {
        List<String> values = new ArrayList<>(2);
        if (headers != null) {
            for (CharSequence v : headers.getAll(name.toLowerCase(Locale.ROOT))) {
                values.add(v.toString());
            }
        }
        return values;
    }

    @Override
    public int bodyLength() {
        return length;
    }

    @Override
    public byte bodyByte(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("body index " + index + " of " + length);
        }
        return body.getByte(start + index);
    }

    @Override
    public int indexOf(byte[] needle, int from) {
        if (needle.length == 0) {
            return Math.max(0, Math.min(from, length));
        }
        return BodyScan.indexOf(body, start, length, needle, from);
    }

    @Override
    public byte[] bodyBytes() {
        byte[] copy = new byte[length];
        if (length > 0) {
            body.getBytes(start, copy);
        }
        return copy;
    }
}

package perflab.driver;

import io.netty.buffer.ByteBuf;
import perflab.core.traffic.ResponseView;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Frames one HTTP/1.1 response in a receive buffer and lets the traffic read it in place. It records offsets
 * (relative to the response's first byte) instead of building header or body objects, so a response that
 * arrives in one read is checked without a copy, and parsing can resume when more bytes arrive (the caller
 * cumulates them in a buffer that starts at the same first byte). One instance per connection, reused for
 * every response; allocation happens only when the traffic asks for header values or the body as text.
 */
final class ResponseParser implements ResponseView {
    static final int NEED_MORE = 0;
    static final int COMPLETE = 1;
    static final int ERROR = 2;

    /** A head larger than this is not a response we sent a request for: garbage. */
    static final int MAX_HEAD_BYTES = 64 * 1024;
    /** Bodies are framed in memory; beyond this a run would only measure our own copying. */
    static final long MAX_BODY_BYTES = 256L * 1024 * 1024;

    private static final int STATUS_LINE = 0;
    private static final int HEADERS = 1;
    private static final int BODY_FIXED = 2;
    private static final int CHUNK_SIZE = 3;
    private static final int CHUNK_DATA = 4;
    private static final int TRAILERS = 5;
    private static final int BODY_UNTIL_CLOSE = 6;
    private static final int DONE = 7;

    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] CLOSE = ascii("close");
    private static final byte[] KEEP_ALIVE = ascii("keep-alive");

    private ByteBuf buf;
    private int base;          // absolute index of the response's first byte in buf
    private int state;
    private int pos;           // next byte to parse, relative to base
    private boolean headRequest;

    private int status;
    private boolean http10;
    private boolean closeHeader;
    private boolean keepAliveHeader;
    private boolean chunked;
    private long contentLength;
    private int headerCount;
    private int[] headerOffsets = new int[4 * 16]; // nameStart, nameEnd, valueStart, valueEnd per header
    private int bodyStart;
    private int bodyLength;
    private int[] segments = new int[2 * 8];        // chunked bodies: (start, length) per chunk
    private int segmentCount;
    private int lastSegment;                        // bodyByte() reads sequentially: remember where we were
    private int lastSegmentBodyOffset;
    private long chunkRemaining;
    private String error;

    /** Prepares for the response to the next request ({@code head}: a HEAD request, whose response has no body). */
    void reset(boolean head) {
        buf = null;
        base = 0;
        state = STATUS_LINE;
        pos = 0;
        headRequest = head;
        status = 0;
        http10 = false;
        closeHeader = false;
        keepAliveHeader = false;
        chunked = false;
        contentLength = -1;
        headerCount = 0;
        bodyStart = 0;
        bodyLength = 0;
        segmentCount = 0;
        lastSegment = 0;
        lastSegmentBodyOffset = 0;
        chunkRemaining = 0;
        bodyStartedUntilClose = false;
        error = null;
    }

    /**
     * Parses from {@code in.readerIndex()} (the response's first byte) on, resuming where the last call stopped.
     * Does not move the reader index.
     */
    int parse(ByteBuf in) {
        buf = in;
        base = in.readerIndex();
        int end = in.writerIndex() - base;
        while (true) {
            switch (state) {
                case STATUS_LINE: {
                    int lf = lineEnd(end);
                    if (lf < 0) {
                        return needMoreHead(end);
                    }
                    if (!statusLine(pos, contentEnd(pos, lf))) {
                        return ERROR;
                    }
                    pos = lf + 1;
                    state = HEADERS;
                    break;
                }
                case HEADERS: {
                    int lf = lineEnd(end);
                    if (lf < 0) {
                        return needMoreHead(end);
                    }
                    int lineEnd = contentEnd(pos, lf);
                    if (lineEnd == pos) {
                        pos = lf + 1;
                        if (!startBody()) {
                            return ERROR;
                        }
                        break;
                    }
                    if (!header(pos, lineEnd)) {
                        return ERROR;
                    }
                    pos = lf + 1;
                    break;
                }
                case BODY_FIXED:
                    if (end - bodyStart < bodyLength) {
                        return NEED_MORE;
                    }
                    pos = bodyStart + bodyLength;
                    state = DONE;
                    return COMPLETE;
                case CHUNK_SIZE: {
                    int lf = lineEnd(end);
                    if (lf < 0) {
                        return end - pos > 1024 ? fail("chunk size line too long") : NEED_MORE;
                    }
                    long size = chunkSize(pos, contentEnd(pos, lf));
                    if (size < 0) {
                        return ERROR;
                    }
                    pos = lf + 1;
                    if (size == 0) {
                        state = TRAILERS;
                    } else {
                        if (bodyLength + size > MAX_BODY_BYTES) {
                            return fail("response body larger than " + MAX_BODY_BYTES + " bytes");
                        }
                        chunkRemaining = size;
                        state = CHUNK_DATA;
                    }
                    break;
                }
                case CHUNK_DATA: {
                    // A chunk is taken whole with its CRLF, so a segment never has to be extended later.
                    int size = (int) chunkRemaining;
                    if (end - pos < size + 2) {
                        return NEED_MORE;
                    }
                    if (byteAt(pos + size) != '\r' || byteAt(pos + size + 1) != '\n') {
                        return fail("chunk data not followed by CRLF");
                    }
                    addSegment(pos, size);
                    pos += size + 2;
                    state = CHUNK_SIZE;
                    break;
                }
                case TRAILERS: {
                    int lf = lineEnd(end);
                    if (lf < 0) {
                        return needMoreHead(end);
                    }
                    boolean empty = contentEnd(pos, lf) == pos;
                    pos = lf + 1;
                    if (empty) {
                        state = DONE;
                        return COMPLETE;
                    }
                    break;
                }
                case BODY_UNTIL_CLOSE:
                    bodyLength = end - bodyStart;
                    if (bodyLength > MAX_BODY_BYTES) {
                        return fail("response body larger than " + MAX_BODY_BYTES + " bytes");
                    }
                    return NEED_MORE;
                case DONE:
                    return COMPLETE;
                default:
                    return fail("parser in an unknown state");
            }
        }
    }

    /** The connection closed: a body delimited by the close is complete now, anything else is broken. */
    int finishOnClose(ByteBuf in) {
        if (state != BODY_UNTIL_CLOSE) {
            return ERROR;
        }
        buf = in;
        base = in.readerIndex();
        bodyLength = in.writerIndex() - base - bodyStart;
        pos = bodyStart + bodyLength;
        state = DONE;
        return COMPLETE;
    }

    /** True while the response is still being read with a body that ends only when the server closes. */
    boolean readsUntilClose() {
        return state == BODY_UNTIL_CLOSE;
    }

    /** Bytes of the complete response (head and body), counted from its first byte. */
    int length() {
        return pos;
    }

    /** Whether the server wants the connection closed after this response. */
    boolean closeAfter() {
        return closeHeader || (http10 && !keepAliveHeader) || bodyStartedUntilClose;
    }

    private boolean bodyStartedUntilClose;

    String error() {
        return error;
    }

    // --- ResponseView ---

    @Override
    public int status() {
        return status;
    }

    @Override
    public String header(String name) {
        for (int i = 0; i < headerCount; i++) {
            if (nameIs(i, name)) {
                return value(i);
            }
        }
        return null;
    }

    @Override
    public List<String> headers(String name) {
        List<String> values = new ArrayList<>(2);
        for (int i = 0; i < headerCount; i++) {
            if (nameIs(i, name)) {
                values.add(value(i));
            }
        }
        return values;
    }

    @Override
    public int bodyLength() {
        return bodyLength;
    }

    @Override
    public byte bodyByte(int index) {
        if (index < 0 || index >= bodyLength) {
            throw new IndexOutOfBoundsException("body index " + index + " outside 0.." + bodyLength);
        }
        if (!chunked) {
            return buf.getByte(base + bodyStart + index);
        }
        return buf.getByte(base + chunkedPosition(index));
    }

    @Override
    public int indexOf(byte[] needle, int from) {
        if (chunked || needle.length == 0) {
            return ResponseView.super.indexOf(needle, from);
        }
        // The cheap check of nearly every response: scan the contiguous body directly.
        return BodyScan.indexOf(buf, base + bodyStart, bodyLength, needle, from);
    }

    @Override
    public byte[] bodyBytes() {
        byte[] copy = new byte[bodyLength];
        if (!chunked) {
            buf.getBytes(base + bodyStart, copy);
            return copy;
        }
        int at = 0;
        for (int s = 0; s < segmentCount; s++) {
            int len = segments[2 * s + 1];
            buf.getBytes(base + segments[2 * s], copy, at, len);
            at += len;
        }
        return copy;
    }

    // --- parsing ---

    private int chunkedPosition(int index) {
        int s = lastSegment;
        int offset = lastSegmentBodyOffset;
        if (index < offset) {
            s = 0;
            offset = 0;
        }
        while (index >= offset + segments[2 * s + 1]) {
            offset += segments[2 * s + 1];
            s++;
        }
        lastSegment = s;
        lastSegmentBodyOffset = offset;
        return segments[2 * s] + (index - offset);
    }

    private byte byteAt(int relative) {
        return buf.getByte(base + relative);
    }

    /** Index (relative) of the next LF at or after pos, or -1. */
    private int lineEnd(int end) {
        if (pos >= end) {
            return -1;
        }
        int lf = buf.indexOf(base + pos, base + end, (byte) '\n');
        return lf < 0 ? -1 : lf - base;
    }

    /** End of a line's content: before the CR of CRLF (a bare LF is tolerated). */
    private int contentEnd(int start, int lf) {
        return lf > start && byteAt(lf - 1) == '\r' ? lf - 1 : lf;
    }

    private int needMoreHead(int end) {
        return end > MAX_HEAD_BYTES ? fail("response head larger than " + MAX_HEAD_BYTES + " bytes") : NEED_MORE;
    }

    private boolean statusLine(int start, int end) {
        // "HTTP/1.x SSS reason"
        if (end - start < 12 || byteAt(start) != 'H' || byteAt(start + 1) != 'T' || byteAt(start + 2) != 'T'
                || byteAt(start + 3) != 'P' || byteAt(start + 4) != '/' || byteAt(start + 5) != '1'
                || byteAt(start + 6) != '.' || byteAt(start + 8) != ' ') {
            return failed("not an HTTP/1.x status line: " + printable(start, Math.min(end, start + 40)));
        }
        byte minor = byteAt(start + 7);
        if (minor != '0' && minor != '1') {
            return failed("unsupported HTTP version in status line");
        }
        http10 = minor == '0';
        int code = 0;
        for (int i = start + 9; i < start + 12; i++) {
            byte b = byteAt(i);
            if (b < '0' || b > '9') {
                return failed("status code is not 3 digits: " + printable(start, Math.min(end, start + 40)));
            }
            code = code * 10 + (b - '0');
        }
        if (end > start + 12 && byteAt(start + 12) != ' ') {
            return failed("status code is not 3 digits: " + printable(start, Math.min(end, start + 40)));
        }
        if (code < 100) {
            return failed("status code " + code + " out of range");
        }
        if (code < 200) {
            // We never send Expect: 100-continue or Upgrade, so an interim response is not part of our exchange.
            return failed("unexpected interim response " + code);
        }
        status = code;
        return true;
    }

    private boolean header(int start, int end) {
        byte first = byteAt(start);
        if (first == ' ' || first == '\t') {
            return failed("obsolete folded header line");
        }
        int colon = -1;
        for (int i = start; i < end; i++) {
            byte b = byteAt(i);
            if (b == ':') {
                colon = i;
                break;
            }
            if (b == ' ' || b == '\t' || b < 0x21) {
                return failed("malformed header line: " + printable(start, Math.min(end, start + 40)));
            }
        }
        if (colon <= start) {
            return failed("malformed header line: " + printable(start, Math.min(end, start + 40)));
        }
        int valueStart = colon + 1;
        while (valueStart < end && (byteAt(valueStart) == ' ' || byteAt(valueStart) == '\t')) {
            valueStart++;
        }
        int valueEnd = end;
        while (valueEnd > valueStart && (byteAt(valueEnd - 1) == ' ' || byteAt(valueEnd - 1) == '\t')) {
            valueEnd--;
        }
        if (4 * headerCount + 4 > headerOffsets.length) {
            headerOffsets = java.util.Arrays.copyOf(headerOffsets, headerOffsets.length * 2);
        }
        int h = 4 * headerCount++;
        headerOffsets[h] = start;
        headerOffsets[h + 1] = colon;
        headerOffsets[h + 2] = valueStart;
        headerOffsets[h + 3] = valueEnd;

        if (regionIs(start, colon, CONTENT_LENGTH)) {
            long length = 0;
            if (valueEnd == valueStart || valueEnd - valueStart > 12) {
                return failed("invalid Content-Length");
            }
            for (int i = valueStart; i < valueEnd; i++) {
                byte b = byteAt(i);
                if (b < '0' || b > '9') {
                    return failed("invalid Content-Length");
                }
                length = length * 10 + (b - '0');
            }
            if (contentLength >= 0 && contentLength != length) {
                return failed("conflicting Content-Length headers");
            }
            contentLength = length;
        } else if (regionIs(start, colon, TRANSFER_ENCODING)) {
            if (contains(valueStart, valueEnd, CHUNKED)) {
                chunked = true;
            }
        } else if (regionIs(start, colon, CONNECTION)) {
            if (contains(valueStart, valueEnd, CLOSE)) {
                closeHeader = true;
            } else if (contains(valueStart, valueEnd, KEEP_ALIVE)) {
                keepAliveHeader = true;
            }
        }
        return true;
    }

    private boolean startBody() {
        bodyStart = pos;
        bodyStartedUntilClose = false;
        if (headRequest || status == 204 || status == 304) {
            bodyLength = 0;
            state = BODY_FIXED;
        } else if (chunked) {
            bodyLength = 0;
            state = CHUNK_SIZE;
        } else if (contentLength >= 0) {
            if (contentLength > MAX_BODY_BYTES) {
                return failed("response body larger than " + MAX_BODY_BYTES + " bytes");
            }
            bodyLength = (int) contentLength;
            state = BODY_FIXED;
        } else {
            bodyLength = 0;
            bodyStartedUntilClose = true;
            state = BODY_UNTIL_CLOSE;
        }
        return true;
    }

    private long chunkSize(int start, int end) {
        long size = 0;
        int digits = 0;
        for (int i = start; i < end; i++) {
            byte b = byteAt(i);
            int d;
            if (b >= '0' && b <= '9') {
                d = b - '0';
            } else if (b >= 'a' && b <= 'f') {
                d = b - 'a' + 10;
            } else if (b >= 'A' && b <= 'F') {
                d = b - 'A' + 10;
            } else if ((b == ';' || b == ' ' || b == '\t') && digits > 0) {
                break; // chunk extensions are allowed and ignored
            } else {
                fail("invalid chunk size line: " + printable(start, Math.min(end, start + 20)));
                return -1;
            }
            if (++digits > 8) {
                fail("chunk size too large");
                return -1;
            }
            size = size * 16 + d;
        }
        if (digits == 0) {
            fail("empty chunk size line");
            return -1;
        }
        return size;
    }

    private void addSegment(int start, int length) {
        if (2 * segmentCount + 2 > segments.length) {
            segments = java.util.Arrays.copyOf(segments, segments.length * 2);
        }
        segments[2 * segmentCount] = start;
        segments[2 * segmentCount + 1] = length;
        segmentCount++;
        bodyLength += length;
    }

    private boolean regionIs(int start, int end, byte[] lowerName) {
        if (end - start != lowerName.length) {
            return false;
        }
        for (int i = 0; i < lowerName.length; i++) {
            if (lower(byteAt(start + i)) != lowerName[i]) {
                return false;
            }
        }
        return true;
    }

    private boolean contains(int start, int end, byte[] lowerToken) {
        int last = end - lowerToken.length;
        outer:
        for (int i = start; i <= last; i++) {
            for (int j = 0; j < lowerToken.length; j++) {
                if (lower(byteAt(i + j)) != lowerToken[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private boolean nameIs(int header, String name) {
        int start = headerOffsets[4 * header];
        int end = headerOffsets[4 * header + 1];
        if (end - start != name.length()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (lower(byteAt(start + i)) != lower((byte) name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private String value(int header) {
        int start = headerOffsets[4 * header + 2];
        int end = headerOffsets[4 * header + 3];
        return buf.toString(base + start, end - start, StandardCharsets.ISO_8859_1);
    }

    private static byte lower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }

    private int fail(String message) {
        error = message;
        return ERROR;
    }

    private boolean failed(String message) {
        error = message;
        return false;
    }

    private String printable(int start, int end) {
        StringBuilder sb = new StringBuilder();
        for (int i = start; i < end; i++) {
            byte b = byteAt(i);
            sb.append(b >= 0x20 && b < 0x7f ? (char) b : '?');
        }
        return sb.toString();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}

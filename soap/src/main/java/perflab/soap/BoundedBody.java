package perflab.soap;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * A request body read completely into memory, never more than a limit. A declared Content-Length over the
 * limit is refused without being stored; a chunked body is refused as soon as it passes the limit. Before
 * refusing, up to {@link #DRAIN_LIMIT} bytes of the rest are read and discarded: a server that answers and
 * closes while the client is still sending makes the kernel reset the connection, and the client then sees
 * a broken connection instead of the fault. Beyond that allowance the connection is given up.
 */
public final class BoundedBody {
    private static final int INITIAL_CAPACITY = 8 * 1024;
    /** How much of an oversized body is read and thrown away so that its sender gets the fault. */
    static final long DRAIN_LIMIT = 4L * 1024 * 1024;
    /** How the too-large fault's reason starts ({@link SoapAdmission#closesConnection}). */
    static final String TOO_LARGE = "request body exceeds";

    private final byte[] bytes;
    private final int length;

    private BoundedBody(byte[] bytes, int length) {
        this.bytes = bytes;
        this.length = length;
    }

    /**
     * Reads {@code in} to its end.
     *
     * @param declaredLength the Content-Length, or a negative number if unknown
     * @param limit          the most bytes accepted
     * @throws SoapFault a Client fault if the body is larger than {@code limit}
     */
    public static BoundedBody read(InputStream in, long declaredLength, int limit) throws SoapFault, IOException {
        if (declaredLength > limit) {
            drain(in, Math.min(declaredLength, DRAIN_LIMIT));
            throw tooLarge(limit, declaredLength);
        }
        byte[] buffer = new byte[declaredLength >= 0 ? (int) declaredLength : Math.min(INITIAL_CAPACITY, limit)];
        int length = 0;
        while (true) {
            if (length == buffer.length) {
                if (declaredLength >= 0) {
                    // all declared bytes are in: one more read must see end of input
                    if (in.read() < 0) {
                        return new BoundedBody(buffer, length);
                    }
                    throw SoapFault.client("request body is longer than its Content-Length");
                }
                if (length >= limit) {
                    if (in.read() < 0) {
                        return new BoundedBody(buffer, length);
                    }
                    drain(in, DRAIN_LIMIT);
                    throw tooLarge(limit, -1);
                }
                buffer = Arrays.copyOf(buffer, (int) Math.min((long) limit, Math.max(16L, buffer.length * 2L)));
            }
            int n = in.read(buffer, length, buffer.length - length);
            if (n < 0) {
                if (declaredLength >= 0 && length < declaredLength) {
                    throw SoapFault.client("request body ended after " + length + " of " + declaredLength + " bytes");
                }
                return new BoundedBody(buffer, length);
            }
            length += n;
        }
    }

    /** Reads and discards up to {@code max} bytes, or to the end of the body. */
    private static void drain(InputStream in, long max) throws IOException {
        byte[] sink = new byte[8192];
        long left = max;
        while (left > 0) {
            int n = in.read(sink, 0, (int) Math.min(sink.length, left));
            if (n < 0) {
                return;
            }
            left -= n;
        }
    }

    private static SoapFault tooLarge(int limit, long declared) {
        return SoapFault.client(TOO_LARGE + " the limit of " + limit + " bytes"
                + (declared >= 0 ? " (Content-Length " + declared + ")" : ""));
    }

    /** The backing array; only {@code [0, length())} is the body. */
    public byte[] array() {
        return bytes;
    }

    public int length() {
        return length;
    }
}

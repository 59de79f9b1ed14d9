package perflab.soap;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * A request body read completely into memory, never more than a limit. A declared Content-Length over the
 * limit is refused before anything is read; a chunked body is refused as soon as it passes the limit.
 */
public final class BoundedBody {
    private static final int INITIAL_CAPACITY = 8 * 1024;

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

    private static SoapFault tooLarge(int limit, long declared) {
        return SoapFault.client("request body exceeds the limit of " + limit + " bytes"
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

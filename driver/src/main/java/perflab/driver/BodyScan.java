package perflab.driver;

import io.netty.buffer.ByteBuf;

/**
 * Finds a byte sequence in a contiguous response body held in a ByteBuf: the check of nearly every response.
 * The first byte is found by the buffer's own {@link ByteBuf#indexOf} (one call that scans in bulk), and only its
 * candidates are compared further. A loop of {@code getByte} calls instead depended on the JIT inlining Netty's
 * bounds and reference-count checks into it, which it does in some driver JVMs and not in others: the driver
 * cost 11 µs of CPU per soap-echo request in one run and 15.5 µs in five, where those checks were the hottest
 * frames.
 */
final class BodyScan {
    private BodyScan() {
    }

    /**
     * The index, relative to the body, of {@code needle} at or after {@code from}; -1 when absent.
     *
     * @param start  the body's first byte's index in {@code buf}
     * @param length the body's length
     */
    static int indexOf(ByteBuf buf, int start, int length, byte[] needle, int from) {
        int last = length - needle.length;
        byte first = needle[0];
        for (int i = Math.max(0, from); i <= last; i++) {
            int at = buf.indexOf(start + i, start + last + 1, first);
            if (at < 0) {
                return -1;
            }
            i = at - start;
            int j = 1;
            while (j < needle.length && buf.getByte(at + j) == needle[j]) {
                j++;
            }
            if (j == needle.length) {
                return i;
            }
        }
        return -1;
    }
}

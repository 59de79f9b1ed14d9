package perflab.core.traffic;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A read-only view of one HTTP response, valid only during {@link ClientSession#check}. The driver backs it
 * with its receive buffer, so the cheap checks (status, a marker, an id) scan bytes without copying; only a
 * deep check asks for the body as text.
 */
public interface ResponseView {
    int status();

    /** The first value of a header (case-insensitive name), or null. */
    String header(String name);

    /** Every value of a header, in order (e.g. Set-Cookie). */
    List<String> headers(String name);

    int bodyLength();

    byte bodyByte(int index);

    /** The first index at or after {@code from} where the body contains {@code needle}, or -1. */
    default int indexOf(byte[] needle, int from) {
        int last = bodyLength() - needle.length;
        for (int i = Math.max(0, from); i <= last; i++) {
            if (holdsAt(i, needle)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether the body holds {@code needle} at {@code at} exactly. */
    default boolean holdsAt(int at, byte[] needle) {
        if (at < 0 || at > bodyLength() - needle.length) {
            return false;
        }
        for (int j = 0; j < needle.length; j++) {
            if (bodyByte(at + j) != needle[j]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads an optionally signed decimal integer starting at {@code from}; returns {@link Long#MIN_VALUE} if
     * there is no digit there.
     */
    default long decimalAt(int from) {
        int i = from;
        int end = bodyLength();
        boolean negative = false;
        if (i < end && bodyByte(i) == '-') {
            negative = true;
            i++;
        }
        long value = 0;
        int digits = 0;
        while (i < end && digits < 19) {
            byte b = bodyByte(i);
            if (b < '0' || b > '9') {
                break;
            }
            value = value * 10 + (b - '0');
            digits++;
            i++;
        }
        if (digits == 0) {
            return Long.MIN_VALUE;
        }
        return negative ? -value : value;
    }

    /**
     * The text (UTF-8) between the first {@code start} at or after {@code from} and the next {@code end} after it,
     * or null: a token between markers, a cell of a table.
     */
    default String textBetween(byte[] start, byte[] end, int from) {
        int s = indexOf(start, from);
        if (s < 0) {
            return null;
        }
        s += start.length;
        int e = indexOf(end, s);
        return e < 0 ? null : text(s, e);
    }

    /** The body's bytes from {@code from} to {@code to} as UTF-8 text. */
    default String text(int from, int to) {
        byte[] b = new byte[to - from];
        for (int i = 0; i < b.length; i++) {
            b[i] = bodyByte(from + i);
        }
        return new String(b, StandardCharsets.UTF_8);
    }

    default byte[] bodyBytes() {
        byte[] copy = new byte[bodyLength()];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = bodyByte(i);
        }
        return copy;
    }

    /**
     * The text between the first {@code open} and the next {@code close} of the body, white space collapsed and
     * cut at {@code max} characters ("..." added), or null when the markers are not there: the reason of a
     * fault for an error report. Only on the error path, where allocating is fine.
     */
    default String textBetween(String open, String close, int max) {
        String body = bodyText();
        int start = body.indexOf(open);
        int end = start < 0 ? -1 : body.indexOf(close, start + open.length());
        if (end < 0) {
            return null;
        }
        String text = body.substring(start + open.length(), end).replaceAll("\\s+", " ").trim();
        return text.length() > max ? text.substring(0, max) + "..." : text;
    }

    default String bodyText() {
        return new String(bodyBytes(), StandardCharsets.UTF_8);
    }
}

package perflab.soapecho;

import java.util.Arrays;

/**
 * The last response body a session verified in full (parsed, every leaf compared), with where the id's echo sat in
 * it. One operation's correct responses differ only in the id's digits, so a later body that holds the same bytes
 * outside its own id span is the verified body with this request's id, which the cheap check has just read back:
 * parsing it again would give the same leaves and pass. The deep check then compares bytes (a vectorised compare of
 * a few KB) instead of parsing (about 70 µs for echoComplexTypeDoc, 4 % of the driver's CPU at the default 1 %). A
 * body that differs anywhere else, by one byte, is parsed as before, so a wrong field is still named.
 */
record VerifiedBody(byte[] body, int idFrom, int idTo) {

    /** Whether {@code other}, its id's echo at {@code from}-{@code to}, is this body outside the two id spans. */
    boolean sameApartFromId(byte[] other, int from, int to) {
        return from == idFrom && other.length - to == body.length - idTo
                && Arrays.equals(body, 0, idFrom, other, 0, from)
                && Arrays.equals(body, idTo, body.length, other, to, other.length);
    }
}

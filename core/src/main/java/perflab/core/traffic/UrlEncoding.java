package perflab.core.traffic;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Percent-encoding of values for a request's slots, as bytes ready to send: {@link #component} for a path
 * segment or query value (RFC 3986: everything but unreserved characters is encoded, a space as %20) and
 * {@link #formValue} / {@link #form} for an application/x-www-form-urlencoded body (a space as '+').
 */
public final class UrlEncoding {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private UrlEncoding() {
    }

    public static byte[] component(String value) {
        return encode(value, false, new ByteArrayOutputStream(value.length() + 8)).toByteArray();
    }

    public static byte[] formValue(String value) {
        return encode(value, true, new ByteArrayOutputStream(value.length() + 8)).toByteArray();
    }

    /** A form body from name, value pairs: {@code form("user", "ann", "csrf", token)}. */
    public static byte[] form(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("a form needs name, value pairs; got " + namesAndValues.length + " strings");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (i > 0) {
                out.write('&');
            }
            encode(namesAndValues[i], true, out).write('=');
            encode(namesAndValues[i + 1], true, out);
        }
        return out.toByteArray();
    }

    private static ByteArrayOutputStream encode(String value, boolean form, ByteArrayOutputStream out) {
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            if (b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '.'
                    || b == '_' || b == '~') {
                out.write(b);
            } else if (b == ' ' && form) {
                out.write('+');
            } else {
                out.write('%');
                out.write(HEX[(b >> 4) & 0xF]);
                out.write(HEX[b & 0xF]);
            }
        }
        return out;
    }
}

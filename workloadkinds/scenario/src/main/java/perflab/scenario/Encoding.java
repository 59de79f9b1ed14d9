package perflab.scenario;

import perflab.core.traffic.UrlEncoding;

import java.nio.charset.StandardCharsets;

/** How a variable's value is written where a request uses it, so that a value cannot break the request's syntax. */
enum Encoding {
    /** As it is: headers, and bodies of no known type. */
    RAW,
    /** A path segment or query value: everything but unreserved characters percent-encoded. */
    COMPONENT,
    /** A path a variable begins (a link taken from a page): only what cannot stand in a request line encoded. */
    PATH,
    /** A field of an application/x-www-form-urlencoded body. */
    FORM,
    /** Inside a JSON string. */
    JSON,
    /** XML text or an attribute value (a SOAP body). */
    XML;

    String slotPrefix() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    byte[] encode(String value) {
        return switch (this) {
            case RAW -> value.getBytes(StandardCharsets.UTF_8);
            case COMPONENT -> UrlEncoding.component(value);
            case FORM -> UrlEncoding.formValue(value);
            case PATH -> path(value);
            case JSON -> json(value).getBytes(StandardCharsets.UTF_8);
            case XML -> xml(value).getBytes(StandardCharsets.UTF_8);
        };
    }

    /** The value with a space, a control character, a non-ASCII byte or one of {@code "<>\^`{|}} percent-encoded. */
    private static byte[] path(String value) {
        byte[] raw = value.getBytes(StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(raw.length + 8);
        for (byte b : raw) {
            if (b <= ' ' || b >= 127 || "\"<>\\^`{|}".indexOf(b) >= 0) {
                out.write('%');
                out.write(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)));
                out.write(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            } else {
                out.write(b);
            }
        }
        return out.toByteArray();
    }

    static String json(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    static String xml(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}

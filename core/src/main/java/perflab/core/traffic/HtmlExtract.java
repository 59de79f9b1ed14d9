package perflab.core.traffic;

import java.nio.charset.StandardCharsets;

/**
 * Values from an HTML page, for sessions that follow a web application: the value of a form's
 * {@code <input name=...>} (a CSRF token, a hidden id). A scan of the response's bytes, not an HTML parser:
 * enough for pages a benchmark drives, whose markup it knows.
 */
public final class HtmlExtract {
    private HtmlExtract() {
    }

    /** The value attribute of the first input whose name is {@code name} (entities decoded), or null. */
    public static String inputValue(ResponseView page, String name) {
        for (String quote : new String[] {"\"", "'"}) {
            byte[] needle = ("name=" + quote + name + quote).getBytes(StandardCharsets.UTF_8);
            int at = page.indexOf(needle, 0);
            while (at >= 0) {
                int tagStart = lastIndexOf(page, (byte) '<', at);
                int tagEnd = page.indexOf(new byte[] {'>'}, at);
                if (tagStart >= 0 && tagEnd > at && startsWithIgnoreCase(page, tagStart + 1, "input")) {
                    String value = attribute(page, tagStart, tagEnd, "value");
                    if (value != null) {
                        return decodeEntities(value);
                    }
                }
                at = page.indexOf(needle, at + needle.length);
            }
        }
        return null;
    }

    /** An attribute's value within a tag [from, to), quoted or not, or null. */
    private static String attribute(ResponseView page, int from, int to, String attribute) {
        byte[] key = (attribute + "=").getBytes(StandardCharsets.US_ASCII);
        int at = page.indexOf(key, from);
        while (at >= 0 && at < to) {
            byte before = page.bodyByte(at - 1);
            if (before == ' ' || before == '\t' || before == '\n' || before == '\r') {
                int v = at + key.length;
                byte q = page.bodyByte(v);
                if (q == '"' || q == '\'') {
                    int end = page.indexOf(new byte[] {q}, v + 1);
                    return end < 0 || end > to ? null : page.text(v + 1, end);
                }
                int end = v;
                while (end < to && page.bodyByte(end) != ' ' && page.bodyByte(end) != '/' && page.bodyByte(end) != '>') {
                    end++;
                }
                return page.text(v, end);
            }
            at = page.indexOf(key, at + 1);
        }
        return null;
    }

    private static int lastIndexOf(ResponseView page, byte b, int before) {
        for (int i = before - 1; i >= 0; i--) {
            byte c = page.bodyByte(i);
            if (c == b) {
                return i;
            }
            if (c == '>') {
                return -1; // not inside a tag
            }
        }
        return -1;
    }

    private static boolean startsWithIgnoreCase(ResponseView page, int at, String word) {
        if (at + word.length() > page.bodyLength()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (Character.toLowerCase((char) page.bodyByte(at + i)) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The five entities XML knows and numeric ones, which is what a server writes into attribute values. */
    static String decodeEntities(String text) {
        if (text.indexOf('&') < 0) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            int semi = c == '&' ? text.indexOf(';', i) : -1;
            if (semi < 0 || semi - i > 10) {
                sb.append(c);
                i++;
                continue;
            }
            String entity = text.substring(i + 1, semi);
            String decoded = switch (entity) {
                case "amp" -> "&";
                case "lt" -> "<";
                case "gt" -> ">";
                case "quot" -> "\"";
                case "apos" -> "'";
                default -> numeric(entity);
            };
            if (decoded == null) {
                sb.append(c);
                i++;
            } else {
                sb.append(decoded);
                i = semi + 1;
            }
        }
        return sb.toString();
    }

    private static String numeric(String entity) {
        try {
            if (entity.startsWith("#x") || entity.startsWith("#X")) {
                return Character.toString(Integer.parseInt(entity.substring(2), 16));
            }
            if (entity.startsWith("#")) {
                return Character.toString(Integer.parseInt(entity.substring(1)));
            }
        } catch (IllegalArgumentException e) {
            // not a character reference: left as it is
        }
        return null;
    }
}

package perflab.core.traffic;

import java.nio.charset.StandardCharsets;

/**
 * Values from a JSON response, for sessions that carry an id or token from one request to the next: the first
 * field of a name, at any depth. A scan of the bytes, not a JSON parser: enough for the responses a benchmark
 * knows.
 */
public final class JsonExtract {
    private JsonExtract() {
    }

    /**
     * The value of the first field {@code name}: a string unescaped, a number, true, false or null as written;
     * null when there is no such field (or its value is an object or array).
     */
    public static String field(ResponseView json, String name) {
        byte[] key = ('"' + name + '"').getBytes(StandardCharsets.UTF_8);
        int end = json.bodyLength();
        int at = json.indexOf(key, 0);
        while (at >= 0) {
            int i = skipSpace(json, at + key.length, end);
            if (i < end && json.bodyByte(i) == ':') {
                i = skipSpace(json, i + 1, end);
                if (i >= end) {
                    return null;
                }
                byte b = json.bodyByte(i);
                if (b == '"') {
                    return string(json, i + 1, end);
                }
                if (b == '{' || b == '[') {
                    return null;
                }
                int j = i;
                while (j < end && ",}] \t\r\n".indexOf(json.bodyByte(j)) < 0) {
                    j++;
                }
                return json.text(i, j);
            }
            at = json.indexOf(key, at + key.length); // the name was a string value, not a field name
        }
        return null;
    }

    private static int skipSpace(ResponseView json, int i, int end) {
        while (i < end && " \t\r\n".indexOf(json.bodyByte(i)) >= 0) {
            i++;
        }
        return i;
    }

    private static String string(ResponseView json, int from, int end) {
        int close = from;
        while (close < end && json.bodyByte(close) != '"') {
            close += json.bodyByte(close) == '\\' ? 2 : 1;
        }
        if (close >= end) {
            return null;
        }
        String raw = json.text(from, close);
        if (raw.indexOf('\\') < 0) {
            return raw;
        }
        StringBuilder sb = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c != '\\' || i + 1 >= raw.length()) {
                sb.append(c);
                continue;
            }
            char e = raw.charAt(++i);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'u' -> {
                    if (i + 4 < raw.length()) {
                        sb.append((char) Integer.parseInt(raw.substring(i + 1, i + 5), 16));
                        i += 4;
                    }
                }
                default -> sb.append(e); // \" \\ \/
            }
        }
        return sb.toString();
    }
}

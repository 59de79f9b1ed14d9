package perflab.trade.liberty.web;

import perflab.trade.lean.site.BadRequest;
import perflab.trade.lean.site.SiteRequest;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code application/x-www-form-urlencoded} text (a form's body or a query string) read as the site reads forms on
 * every stack: UTF-8, {@code +} a space, a malformed {@code %} escape or invalid UTF-8 a 400, at most a given number
 * of fields (beyond: 400), the first value of a repeated name kept. The servlet container's own parameter parsing is
 * not used, so that its limits and its leniency do not decide what a page receives.
 */
final class FormText {
    private FormText() {
    }

    static SiteRequest.Form parse(String text, int maxFields) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (text == null || text.isEmpty()) {
            return fields::get;
        }
        int count = 0;
        for (String pair : text.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            if (++count > maxFields) {
                throw new BadRequest(400, "a form has at most " + maxFields + " fields");
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            fields.putIfAbsent(name, value);
        }
        return fields::get;
    }

    /** One name or value: {@code +} and {@code %XX} decoded, the bytes read as strict UTF-8. */
    static String decode(String s) {
        if (plainAscii(s)) {
            return s;
        }
        byte[] bytes = new byte[s.length()];
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '+') {
                bytes[n++] = ' ';
            } else if (c == '%') {
                int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
                int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
                if (lo < 0) {
                    throw new BadRequest(400, "a malformed %-escape in a form or query");
                }
                bytes[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else if (c < 0x100) {
                bytes[n++] = (byte) c; // the body is read as ISO-8859-1: a char below 256 is the byte sent
            } else {
                // a character a server decoded already (a query string): its UTF-8 bytes
                byte[] raw = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (n + raw.length > bytes.length) {
                    bytes = java.util.Arrays.copyOf(bytes, bytes.length + raw.length + 8);
                }
                System.arraycopy(raw, 0, bytes, n, raw.length);
                n += raw.length;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes, 0, n)).toString();
        } catch (CharacterCodingException e) {
            throw new BadRequest(400, "a form or query that is not UTF-8");
        }
    }

    private static boolean plainAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' || c == '+' || c >= 0x80) {
                return false;
            }
        }
        return true;
    }
}

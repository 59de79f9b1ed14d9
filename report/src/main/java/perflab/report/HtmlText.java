package perflab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import perflab.core.result.Json;

/** Escaping for what a report embeds: text and attributes into HTML, data into a script element. */
public final class HtmlText {
    private static final ObjectWriter COMPACT = Json.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

    private HtmlText() {
    }

    /** Text or an attribute value: every character with a meaning in HTML becomes an entity. */
    public static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * {@code value} as JSON that is safe inside a {@code <script>} element: {@code <}, {@code >} and {@code &}
     * only occur inside JSON strings, where their \\u escapes mean the same, so no {@code </script>} or
     * {@code <!--} can end or change the element. NaN and infinities must already be nulls.
     */
    public static String scriptJson(Object value) {
        String json;
        try {
            json = COMPACT.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write report data as JSON: " + e.getMessage(), e);
        }
        return scriptSafe(json);
    }

    static String scriptSafe(String json) {
        return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }
}

package perflab.trade.lean.web;

/** A JSON string value, escaped: the few JSON bodies the site writes by hand (quotes API, audit) share it. */
public final class JsonText {
    private JsonText() {
    }

    /** Appends {@code s} as a JSON string, with markup characters escaped too, so the body is safe inside a page. */
    public static StringBuilder string(StringBuilder json, String s) {
        json.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&') {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"');
    }
}

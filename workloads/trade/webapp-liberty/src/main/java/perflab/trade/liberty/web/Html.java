package perflab.trade.liberty.web;

/**
 * Text escaped for an HTML page, in content and in double-quoted attribute values alike: what the pages put in
 * (user ids, profile fields, symbols, messages that quote input) can never become markup.
 */
public final class Html {
    private Html() {
    }

    public static String text(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            String entity = switch (s.charAt(i)) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&#34;";
                case '\'' -> "&#39;";
                default -> null;
            };
            if (entity != null && out == null) {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (out != null) {
                if (entity != null) {
                    out.append(entity);
                } else {
                    out.append(s.charAt(i));
                }
            }
        }
        return out == null ? s : out.toString();
    }
}

package perflab.trade.lean.web;

import perflab.trade.lean.Quote;

import java.util.List;

/**
 * The quotes API's body: a JSON array of quotes with DayTrader's QuoteDataBean field names. Written by hand
 * because it is one small, fixed shape; strings are escaped as JSON requires.
 */
final class QuotesJson {
    private QuotesJson() {
    }

    static String write(List<Quote> quotes) {
        StringBuilder json = new StringBuilder(64 + 160 * quotes.size()).append('[');
        for (Quote q : quotes) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append("{\"symbol\":");
            string(json, q.symbol());
            json.append(",\"companyName\":");
            string(json, q.companyName());
            json.append(",\"price\":").append(Formats.money(q.price()))
                    .append(",\"open\":").append(Formats.money(q.open()))
                    .append(",\"low\":").append(Formats.money(q.low()))
                    .append(",\"high\":").append(Formats.money(q.high()))
                    .append(",\"change\":").append(Formats.change(q.change()).replace("+", ""))
                    .append(",\"volume\":").append(Formats.shares(q.volume())).append('}');
        }
        return json.append(']').toString();
    }

    private static void string(StringBuilder json, String s) {
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
                        // also markup characters, so that the body is safe to embed in a page
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}

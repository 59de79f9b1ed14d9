package perflab.trade.lean.web;

import perflab.trade.lean.Quote;

import java.util.List;

/**
 * The quotes API's body: a JSON array of quotes with DayTrader's QuoteDataBean field names. Written by hand
 * because it is one small, fixed shape; strings are escaped by {@link JsonText}.
 */
public final class QuotesJson {
    private QuotesJson() {
    }

    public static String write(List<Quote> quotes) {
        StringBuilder json = new StringBuilder(64 + 160 * quotes.size()).append('[');
        for (Quote q : quotes) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append("{\"symbol\":");
            JsonText.string(json, q.symbol());
            json.append(",\"companyName\":");
            JsonText.string(json, q.companyName());
            json.append(",\"price\":").append(Formats.money(q.price()))
                    .append(",\"open\":").append(Formats.money(q.open()))
                    .append(",\"low\":").append(Formats.money(q.low()))
                    .append(",\"high\":").append(Formats.money(q.high()))
                    .append(",\"change\":").append(Formats.change(q.change()).replace("+", ""))
                    .append(",\"volume\":").append(Formats.shares(q.volume())).append('}');
        }
        return json.append(']').toString();
    }
}

package perflab.trade;

import perflab.core.traffic.ResponseView;
import perflab.trade.contract.TradePages;

import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Byte searches for the contract's markers ({@link TradePages}) in a response: what the cheap checks of every page
 * use, without decoding the page into text. Symbols are the population's {@code s:N}, read and compared as their
 * number N.
 */
final class PageScan {
    static final byte[] USER_OPEN = ascii(TradePages.USER_OPEN);
    static final byte[] USER_CLOSE = ascii(TradePages.USER_CLOSE);
    static final byte[] CSRF_OPEN = ascii(TradePages.CSRF_OPEN);
    static final byte[] CSRF_CLOSE = ascii(TradePages.CSRF_CLOSE);
    static final byte[] BALANCE = ascii(TradePages.BALANCE_OPEN);
    static final byte[] CELL_CLOSE = ascii(TradePages.CELL_CLOSE);
    static final byte[] MARKET_SUMMARY = ascii(TradePages.MARKET_SUMMARY);
    static final byte[] HOLDINGS = ascii(TradePages.HOLDINGS);
    static final byte[] HOLDING_ROW = ascii(TradePages.HOLDING_ROW);
    /** Symbol openers end with the symbol's "s:", so that the number N follows them. */
    static final byte[] QUOTE_ROW_SYMBOL = ascii(TradePages.QUOTE_ROW + "s:");
    static final byte[] PROFILE = ascii(TradePages.PROFILE);
    static final byte[] ORDER = ascii(TradePages.ORDER);
    static final byte[] ORDER_ID = ascii(TradePages.ORDER_ID_OPEN);
    static final byte[] ORDER_SYMBOL = ascii(TradePages.ORDER_SYMBOL_OPEN + "s:");
    static final byte[] ORDER_QUANTITY = ascii(TradePages.ORDER_QUANTITY_OPEN);
    static final byte[] ORDER_STATUS = ascii(TradePages.ORDER_STATUS_OPEN);
    static final byte[] LOGIN_ERROR = ascii(TradePages.LOGIN_ERROR);
    /** A holding row's symbol attribute, after its data-id. */
    static final byte[] DATA_SYMBOL = ascii("data-symbol=\"s:");
    /** A symbol as a JSON string. */
    static final byte[] JSON_SYMBOL = ascii("\"s:");

    private PageScan() {
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static boolean has(ResponseView page, byte[] marker) {
        return page.indexOf(marker, 0) >= 0;
    }

    /** The whole number in the cell that starts with {@code open}, or {@link Long#MIN_VALUE}. */
    static long numberIn(ResponseView page, byte[] open) {
        int at = page.indexOf(open, 0);
        return at < 0 ? Long.MIN_VALUE : page.decimalAt(at + open.length);
    }

    /** The N of a symbol whose "s:" ends just before {@code at}, or -1 when no number is there. */
    static int symbolAt(ResponseView page, int at) {
        long n = page.decimalAt(at);
        return n < 0 || n > Integer.MAX_VALUE ? -1 : (int) n;
    }

    /** The N of the symbol after the first {@code opener} (which ends with "s:"), or -1. */
    static int symbolAfter(ResponseView page, byte[] opener) {
        int at = page.indexOf(opener, 0);
        return at < 0 ? -1 : symbolAt(page, at + opener.length);
    }

    /** How many times {@code marker} occurs in {@code page}. */
    static int count(ResponseView page, byte[] marker) {
        int n = 0;
        for (int at = page.indexOf(marker, 0); at >= 0; at = page.indexOf(marker, at + marker.length)) {
            n++;
        }
        return n;
    }

    /** Whether the response redirects to {@code path}: a Location of that path, absolute or not, any query aside. */
    static boolean redirectsTo(ResponseView response, String path) {
        String location = response.header("Location");
        if (location == null) {
            return false;
        }
        String target = location;
        if (location.contains("://")) {
            try {
                target = URI.create(location).getRawPath();
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
        int query = target.indexOf('?');
        return (query < 0 ? target : target.substring(0, query)).equals(path);
    }

    /** The first non-space byte of the body, or -1 for an empty one. */
    static int firstByte(ResponseView page) {
        for (int i = 0; i < page.bodyLength(); i++) {
            byte b = page.bodyByte(i);
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return b;
            }
        }
        return -1;
    }

    /** A 4xx page's own explanation ({@link TradePages#PROBLEM}), for an error message; "" when it has none. */
    static String problem(ResponseView page) {
        String text = page.textBetween(TradePages.PROBLEM, "</p>", 120);
        return text == null ? "" : " (" + text + ")";
    }
}

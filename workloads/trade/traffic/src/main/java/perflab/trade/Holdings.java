package perflab.trade;

import perflab.core.traffic.ResponseView;

import java.util.Arrays;

/**
 * The holdings on the user's last portfolio page and those of them the client has sold since, so that a sell names
 * a holding the user owns and never the same one twice. Only the user's own client changes its holdings
 * ({@link UserDeck}), so the page stays true until this client trades; a holding sold while its order completes in
 * the background may still be listed, which is why sold ids are remembered, not just dropped.
 */
final class Holdings {
    private long[] ids = new long[16];
    private int[] symbols = new int[16];
    private int count;
    private long[] sold = new long[16];
    private int soldCount;

    /**
     * Takes the rows of a portfolio page ({@code HOLDING_ROW} with data-id and data-symbol); returns null, or what
     * is wrong with a row. Sold ids no longer listed are forgotten: ids are never reused.
     */
    String read(ResponseView page) {
        count = 0;
        byte[] row = PageScan.HOLDING_ROW;
        for (int at = page.indexOf(row, 0); at >= 0; at = page.indexOf(row, at + row.length)) {
            long id = page.decimalAt(at + row.length);
            if (id < 0) {
                return "a holding row without a numeric data-id";
            }
            int symbolAt = page.indexOf(PageScan.DATA_SYMBOL, at);
            int symbol = symbolAt < 0 ? -1 : PageScan.symbolAt(page, symbolAt + PageScan.DATA_SYMBOL.length);
            if (symbol < 0) {
                return "holding " + id + " has no data-symbol s:N";
            }
            if (count == ids.length) {
                ids = Arrays.copyOf(ids, count * 2);
                symbols = Arrays.copyOf(symbols, count * 2);
            }
            ids[count] = id;
            symbols[count++] = symbol;
        }
        int kept = 0;
        for (int i = 0; i < soldCount; i++) {
            if (indexOf(sold[i]) >= 0) {
                sold[kept++] = sold[i];
            }
        }
        soldCount = kept;
        return null;
    }

    /** The first holding on the page the client has not sold, or -1. */
    long firstUnsold() {
        for (int i = 0; i < count; i++) {
            if (!isSold(ids[i])) {
                return ids[i];
            }
        }
        return -1;
    }

    /** The symbol number of a listed holding, or -1. */
    int symbolOf(long id) {
        int i = indexOf(id);
        return i < 0 ? -1 : symbols[i];
    }

    void markSold(long id) {
        if (soldCount == sold.length) {
            sold = Arrays.copyOf(sold, soldCount * 2);
        }
        sold[soldCount++] = id;
    }

    private boolean isSold(long id) {
        for (int i = 0; i < soldCount; i++) {
            if (sold[i] == id) {
                return true;
            }
        }
        return false;
    }

    /** Another user: nothing of this one's applies. */
    void clear() {
        count = 0;
        soldCount = 0;
    }

    private int indexOf(long id) {
        for (int i = 0; i < count; i++) {
            if (ids[i] == id) {
                return i;
            }
        }
        return -1;
    }
}

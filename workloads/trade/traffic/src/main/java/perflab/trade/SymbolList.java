package perflab.trade;

import perflab.core.traffic.ResponseView;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The symbols a quote asks for, drawn at random, distinct, as DayTrader's drivers draw them: {@code s:0} to
 * {@code s:(quotes-2)} (DayTrader never picks the last symbol). Kept by number for the checks of the answer, and
 * written once per request into a reused buffer.
 */
final class SymbolList {
    static final int MAX = 10;
    private static final byte[] PREFIX = {'s', ':'};
    private static final byte[] FORM_PREFIX = {'s', '%', '3', 'A'};

    private final int range;
    private final int[] symbols = new int[MAX];
    private int count;
    private final byte[] buffer = new byte[MAX * (FORM_PREFIX.length + 11)];

    /** @param quotes the population's number of symbols, at least 2 */
    SymbolList(int quotes) {
        this.range = quotes - 1;
    }

    /** Draws {@code n} distinct symbols (fewer when the population has fewer). */
    SymbolList draw(SplittableRandom random, int n) {
        int want = Math.min(Math.min(n, MAX), range);
        count = 0;
        while (count < want) {
            int s = random.nextInt(range);
            if (!contains(s)) {
                symbols[count++] = s;
            }
        }
        return this;
    }

    int count() {
        return count;
    }

    int get(int i) {
        return symbols[i];
    }

    boolean contains(int symbol) {
        for (int i = 0; i < count; i++) {
            if (symbols[i] == symbol) {
                return true;
            }
        }
        return false;
    }

    /** "s:1,s:22" as a path segment or query value carries it (':' and ',' need no escape there). */
    byte[] asPath() {
        return write(PREFIX, (byte) ',');
    }

    /** The first symbol as a form value ("s%3A1"). */
    byte[] firstAsForm() {
        int n = append(buffer, 0, FORM_PREFIX, symbols[0]);
        return Arrays.copyOf(buffer, n);
    }

    /** The first symbol asked ("s:N") that follows no {@code opener} (ending with "s:") in {@code page}, or null. */
    String firstMissing(ResponseView page, byte[] opener) {
        for (int i = 0; i < count; i++) {
            if (!presentAfter(page, opener, symbols[i])) {
                return "s:" + symbols[i];
            }
        }
        return null;
    }

    /** The first symbol after an {@code opener} in {@code page} that was not asked for ("s:N"), or null. */
    String firstUnasked(ResponseView page, byte[] opener) {
        for (int at = page.indexOf(opener, 0); at >= 0; at = page.indexOf(opener, at + opener.length)) {
            int s = PageScan.symbolAt(page, at + opener.length);
            if (!contains(s)) {
                return s < 0 ? "a symbol without a number" : "s:" + s;
            }
        }
        return null;
    }

    private static boolean presentAfter(ResponseView page, byte[] opener, int symbol) {
        for (int at = page.indexOf(opener, 0); at >= 0; at = page.indexOf(opener, at + opener.length)) {
            if (PageScan.symbolAt(page, at + opener.length) == symbol) {
                return true;
            }
        }
        return false;
    }

    private byte[] write(byte[] prefix, byte separator) {
        int n = 0;
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                buffer[n++] = separator;
            }
            n = append(buffer, n, prefix, symbols[i]);
        }
        // the slot takes a whole array: the request's value is a copy of its exact length
        return Arrays.copyOf(buffer, n);
    }

    private static int append(byte[] into, int at, byte[] prefix, int number) {
        System.arraycopy(prefix, 0, into, at, prefix.length);
        int n = at + prefix.length;
        int digits = 1;
        for (int v = number / 10; v > 0; v /= 10) {
            digits++;
        }
        for (int i = n + digits - 1, v = number; i >= n; i--, v /= 10) {
            into[i] = (byte) ('0' + v % 10);
        }
        return n + digits;
    }
}

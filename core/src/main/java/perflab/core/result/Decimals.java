package perflab.core.result;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * A number with a fixed count of decimals, written as {@code String.format(Locale.ROOT, "%.Nf", v)} writes it, without
 * the formatter. The run's once-a-second tables (timeseries.csv and its neighbours) wrote some twenty fields a second
 * with {@code String.format}, whose specifier parser is a regular expression and whose symbols come from a
 * Locale-keyed cache: that code reached its JIT thresholds only after minutes, and its compiles landed in measured
 * windows (issue 36: seconds with the driver's compiler at 5 % of a core or more read 9 % below their run's median).
 * Both round half up from the shortest decimal that reads back as the double ({@link Double#toString}), and both keep
 * the minus of a negative value that rounds to zero.
 */
public final class Decimals {
    private Decimals() {
    }

    public static String fixed(double v, int places) {
        if (!Double.isFinite(v)) {
            return String.format(Locale.ROOT, "%." + places + "f", v);
        }
        String s = BigDecimal.valueOf(v).setScale(places, RoundingMode.HALF_UP).toPlainString();
        boolean negative = v < 0 || v == 0 && 1 / v < 0;
        return negative && s.charAt(0) != '-' ? "-" + s : s;
    }

    /**
     * A whole number as one ({@code 42}), anything else as {@link #fixed} with {@code places} decimals: the counters'
     * and load sources' per-second rows, where most values are counts and the rest rates or means.
     */
    public static String compact(double v, int places) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : fixed(v, places);
    }

    /** {@link #fixed}, spaces before it to {@code width} characters: {@code "%WIDTH.PLACESf"}. */
    public static String padded(double v, int places, int width) {
        String s = fixed(v, places);
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}

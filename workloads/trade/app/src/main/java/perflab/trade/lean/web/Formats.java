package perflab.trade.lean.web;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * How the pages show numbers and times. Money as plain decimals with two places and no grouping, so that a
 * page's balance reads back as the number it is (the driver checks it).
 */
public final class Formats {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private Formats() {
    }

    public static String money(BigDecimal amount) {
        return amount == null ? "" : amount.setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** Shares: a whole number as such ("100"), a fraction as a decimal. */
    public static String shares(double quantity) {
        return quantity == Math.rint(quantity) && Math.abs(quantity) < 1e15
                ? Long.toString((long) quantity) : Double.toString(quantity);
    }

    /** A change in percent with its sign, two places ("+1.25"). */
    public static String percent(BigDecimal percent) {
        if (percent == null) {
            return "";
        }
        BigDecimal p = percent.setScale(2, RoundingMode.HALF_EVEN);
        return (p.signum() > 0 ? "+" : "") + p.toPlainString();
    }

    /** A price change with its sign ("+0.42", "-1.10"). */
    public static String change(double change) {
        return (change > 0 ? "+" : "") + BigDecimal.valueOf(change).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }

    public static String time(Instant instant) {
        return instant == null ? "" : TIME.format(instant);
    }

    /** A CSS class for a gain or loss, so that a person sees the direction at a glance. */
    public static String direction(double change) {
        return change > 0 ? "up" : change < 0 ? "down" : "flat";
    }

    public static String direction(BigDecimal change) {
        return change == null ? "flat" : direction(change.signum());
    }
}

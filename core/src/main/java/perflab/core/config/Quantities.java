package perflab.core.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the quantities users type: durations ("30s", "500ms", "2m", "1h", a bare number is seconds), sizes
 * ("256m", "1g", "512k", a bare number is bytes) and rates ("1000", "1000/s", "2.5k"). Errors are
 * {@link IllegalArgumentException}s whose message is the one line the user sees.
 */
public final class Quantities {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");
    private static final Pattern SIZE = Pattern.compile("(\\d+)([kmg]?)b?");
    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)(k?)(?:/s)?");

    private Quantities() {
    }

    public static Duration duration(String name, String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(name + ": '" + text + "' is not a duration; use e.g. 500ms, 30s, 2m, 1h");
        }
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double millis = switch (unit) {
            case "ms" -> value;
            case "s" -> value * 1_000;
            case "m" -> value * 60_000;
            default -> value * 3_600_000;
        };
        if (millis > Long.MAX_VALUE / 2) {
            throw new IllegalArgumentException(name + ": '" + text + "' is too long");
        }
        return Duration.ofMillis(Math.round(millis));
    }

    /** A size in bytes. */
    public static long size(String name, String text) {
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(name + ": '" + text + "' is not a size; use e.g. 512m, 2g, 64k");
        }
        long value;
        try {
            value = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": '" + text + "' is too large");
        }
        int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 0;
        };
        if (value > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException(name + ": '" + text + "' is too large");
        }
        return value << shift;
    }

    /** A rate in requests per second, > 0. */
    public static double rate(String name, String text) {
        Matcher m = RATE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(name + ": '" + text + "' is not a rate; use e.g. 1000, 1000/s, 2.5k");
        }
        double value = Double.parseDouble(m.group(1)) * (m.group(2).isEmpty() ? 1 : 1000);
        if (value <= 0) {
            throw new IllegalArgumentException(name + ": the rate must be above 0, got '" + text + "'");
        }
        return value;
    }

    /** A count such as a number of requests: "500000", "500k", "1m". */
    public static long count(String name, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace("_", "");
        long multiplier = 1;
        if (t.endsWith("k")) {
            multiplier = 1_000;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            multiplier = 1_000_000;
            t = t.substring(0, t.length() - 1);
        }
        try {
            long value = Long.parseLong(t);
            if (value < 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(value, multiplier);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(name + ": '" + text + "' is not a count; use e.g. 10000, 500k, 1m");
        }
    }
}

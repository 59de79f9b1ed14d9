package perflab.history.gate;

import perflab.history.RunFigure;

import java.util.Locale;

/**
 * One service-level objective of a gate ({@code --slo "p99<5ms"}): a figure, a comparison and a bound in the figure's
 * own unit (converted from the unit given).
 *
 * @param text the objective as the user wrote it, trimmed, for the verdict and the JUnit test case's name
 */
public record Objective(RunFigure figure, Comparison comparison, double bound, String text) {
    /** How a figure is held to its bound. */
    public enum Comparison {
        LESS("<"), AT_MOST("<="), MORE(">"), AT_LEAST(">="), EQUAL("=");

        final String symbol;

        Comparison(String symbol) {
            this.symbol = symbol;
        }

        boolean holds(double actual, double bound) {
            return switch (this) {
                case LESS -> actual < bound;
                case AT_MOST -> actual <= bound;
                case MORE -> actual > bound;
                case AT_LEAST -> actual >= bound;
                case EQUAL -> actual == bound;
            };
        }
    }

    /** Whether {@code actual} (in the figure's unit) meets the objective. */
    public boolean met(double actual) {
        return comparison.holds(actual, bound);
    }

    /** The bound as the figure's unit writes it: {@code 5 ms}. */
    public String boundText() {
        return format(bound) + (figure.unit().isEmpty() ? "" : " " + figure.unit());
    }

    static String format(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        // four significant digits, without the zeros %g pads with (4.2, not 4.200)
        return new java.math.BigDecimal(String.format(Locale.ROOT, "%.4g", v)).stripTrailingZeros().toPlainString();
    }
}

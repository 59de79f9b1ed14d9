package perflab.trade.lean;

import java.util.Locale;

/** When a buy or sell is completed (holding created or removed, quote moved): DayTrader's order-processing mode. */
public enum OrderProcessing {
    /** Inside the buy or sell transaction: the user sees the order closed. */
    SYNC,
    /** On a bounded executor after the buy or sell commits: the user sees the order open, and an alert later. */
    ASYNC;

    /** The mode named {@code sync} or {@code async}; anything else is refused with the accepted names. */
    public static OrderProcessing parse(String name) {
        for (OrderProcessing mode : values()) {
            if (mode.name().equalsIgnoreCase(name == null ? "" : name.trim())) {
                return mode;
            }
        }
        throw new IllegalArgumentException("order processing '" + name + "' is unknown; use sync or async");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}

package perflab.trade.lean;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;

/**
 * Shares of one stock bought by one order, with the stock's current price so that the portfolio page shows the
 * gain or loss.
 *
 * @param purchaseDate {@link #SELL_IN_FLIGHT} while a sell of the holding waits for completion
 */
public record Holding(int holdingId, String symbol, double quantity, BigDecimal purchasePrice, Instant purchaseDate,
                      BigDecimal currentPrice) {
    /** DayTrader's marker of a holding being sold: its table has no status column, so the date says it. */
    public static final Instant SELL_IN_FLIGHT = Instant.EPOCH;

    /** Whether a sell of this holding is pending (asynchronous mode): selling it again is cancelled. */
    public boolean inFlight() {
        return SELL_IN_FLIGHT.equals(purchaseDate);
    }

    public BigDecimal marketValue() {
        return value(currentPrice);
    }

    /** Market value minus what the shares cost. */
    public BigDecimal gain() {
        return marketValue().subtract(value(purchasePrice));
    }

    private BigDecimal value(BigDecimal price) {
        return price.multiply(BigDecimal.valueOf(quantity)).setScale(2, RoundingMode.HALF_UP);
    }
}

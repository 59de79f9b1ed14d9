package perflab.trade.lean;

import java.math.BigDecimal;

/**
 * A stock's quote. {@code open} is the price at population; {@code change} is price - open. DayTrader never moves
 * {@code low} and {@code high} after population, and neither does perflab.
 */
public record Quote(String symbol, String companyName, BigDecimal price, BigDecimal open, BigDecimal low,
                    BigDecimal high, double change, double volume) {
}

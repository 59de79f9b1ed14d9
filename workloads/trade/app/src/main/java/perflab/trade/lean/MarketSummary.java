package perflab.trade.lean;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;

/**
 * The market at {@code summaryDate}: the trade stock index average (TSIA, the mean price over all quotes), its
 * value at population (open TSIA), the volume traded, and the biggest movers by change.
 */
public record MarketSummary(BigDecimal tsia, BigDecimal openTsia, double volume, List<Quote> topGainers,
                           List<Quote> topLosers, Instant summaryDate) {
    public MarketSummary {
        topGainers = List.copyOf(topGainers);
        topLosers = List.copyOf(topLosers);
    }

    /** The index's change since population, in percent (DayTrader's FinancialUtils). */
    public BigDecimal gainPercent() {
        if (openTsia.signum() == 0) {
            return BigDecimal.ZERO.setScale(2);
        }
        return tsia.divide(openTsia, 8, RoundingMode.HALF_UP).subtract(BigDecimal.ONE)
                .multiply(BigDecimal.valueOf(100)).setScale(2, RoundingMode.HALF_UP);
    }
}

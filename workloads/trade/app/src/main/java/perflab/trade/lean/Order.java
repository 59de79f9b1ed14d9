package perflab.trade.lean;

import perflab.trade.contract.TradeRules;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A buy or sell order: DayTrader's OrderDataBean. Its status runs open, then closed (done, alert not yet shown),
 * then completed (alert shown); or it ends cancelled.
 *
 * @param completionDate null while open
 * @param symbol         null for a sell cancelled because its holding was gone
 * @param holdingId      the holding bought, or being sold; null before a buy completes and after a sell completes
 */
public record Order(int orderId, int accountId, String type, String status, Instant openDate, Instant completionDate,
                    double quantity, BigDecimal price, BigDecimal fee, String symbol, Integer holdingId) {

    public boolean isBuy() {
        return TradeRules.BUY.equals(type);
    }

    public boolean isOpen() {
        return TradeRules.OPEN.equals(status);
    }

    /** This order with a new status, as it is after a status change at {@code when}. */
    public Order withStatus(String newStatus, Instant when, Integer newHoldingId) {
        return new Order(orderId, accountId, type, newStatus, openDate, when, quantity, price, fee, symbol,
                newHoldingId);
    }
}

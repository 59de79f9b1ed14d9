package perflab.trade.lean.data;

import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Order;
import perflab.trade.lean.TradeRefusal;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

import static perflab.trade.contract.TradeRules.BUY;
import static perflab.trade.contract.TradeRules.CANCELLED;
import static perflab.trade.contract.TradeRules.CLOSED;
import static perflab.trade.contract.TradeRules.OPEN;
import static perflab.trade.contract.TradeRules.SELL;

/**
 * DayTrader's rules of buying, selling and completing, on the caller's connection and inside the caller's
 * transaction; the service and the population both trade through here. Ids come from the caller (see the package
 * note). Nothing is written before a refusal.
 */
public final class Trading {
    private static final BigDecimal NOTHING = new BigDecimal("0.00");

    private final Supplier<RandomGenerator> priceMoves;

    /** @param priceMoves the random numbers that move a quote's price after a trade */
    Trading(Supplier<RandomGenerator> priceMoves) {
        this.priceMoves = priceMoves;
    }

    /** The cash an order moves on its account: a buy pays price x quantity + fee, a sell brings price x quantity - fee. */
    public static BigDecimal cashFlow(String type, BigDecimal price, double quantity) {
        return BUY.equals(type) ? TradeRules.buyTotal(price, quantity).negate()
                : TradeRules.sellTotal(price, quantity);
    }

    /** An open buy order at the quote's current price, paid for at once (no check for funds, as in DayTrader). */
    Order buy(Connection c, int accountId, String symbol, double quantity, int orderId, Instant now)
            throws SQLException {
        BigDecimal price = QuoteTable.price(c, symbol).orElseThrow(() -> new TradeRefusal(
                TradeRefusal.Reason.UNKNOWN_SYMBOL, "there is no stock with the symbol " + shown(symbol)));
        Order order = new Order(orderId, accountId, BUY, OPEN, now, null, quantity, price, TradeRules.ORDER_FEE,
                symbol, null);
        OrderTable.insert(c, order);
        AccountTable.addToBalance(c, accountId, cashFlow(BUY, price, quantity));
        return order;
    }

    /**
     * An open sell order of the whole holding at the current price, credited at once; the holding is marked as in
     * flight. A holding that is gone or already in flight gives a cancelled order and changes nothing else.
     */
    Order sell(Connection c, int accountId, int holdingId, int orderId, Instant now) throws SQLException {
        Optional<HoldingTable.Locked> found = HoldingTable.lock(c, holdingId);
        if (found.isEmpty()) {
            return cancelled(c, accountId, orderId, null, 0, now);
        }
        HoldingTable.Locked holding = found.get();
        if (holding.accountId() != accountId) {
            throw new TradeRefusal(TradeRefusal.Reason.NOT_YOUR_HOLDING, "holding " + holdingId + " is not yours");
        }
        if (holding.inFlight()) {
            return cancelled(c, accountId, orderId, holding.symbol(), holding.quantity(), now);
        }
        BigDecimal price = QuoteTable.price(c, holding.symbol()).orElseThrow(() -> new SQLException(
                "holding " + holdingId + " names the missing quote " + holding.symbol()));
        Order order = new Order(orderId, accountId, SELL, OPEN, now, null, holding.quantity(), price,
                TradeRules.ORDER_FEE, holding.symbol(), holdingId);
        OrderTable.insert(c, order);
        HoldingTable.markSellInFlight(c, holdingId);
        AccountTable.addToBalance(c, accountId, cashFlow(SELL, price, holding.quantity()));
        return order;
    }

    /**
     * Completes an open order: a buy creates its holding ({@code holdingId}), a sell deletes its holding and every
     * order's reference to it; the order is closed and its quote moves. An order that is not open is returned
     * unchanged, so that a repeated completion (a retried task) does nothing.
     */
    Order complete(Connection c, int orderId, int holdingId, Instant now) throws SQLException {
        Order order = OrderTable.lock(c, orderId).orElseThrow(() -> new TradeRefusal(
                TradeRefusal.Reason.BAD_INPUT, "there is no order " + orderId));
        if (!order.isOpen()) {
            return order;
        }
        Order closed;
        if (order.isBuy()) {
            HoldingTable.insert(c, holdingId, order.price(), order.quantity(), now, order.accountId(),
                    order.symbol());
            closed = order.withStatus(CLOSED, now, holdingId);
        } else {
            Integer sold = order.holdingId();
            if (sold == null || HoldingTable.lock(c, sold).isEmpty()) {
                // deleted behind the sell's back: cancel it and take back its credit, so that the books balance
                AccountTable.addToBalance(c, order.accountId(),
                        cashFlow(SELL, order.price(), order.quantity()).negate());
                Order cancelled = order.withStatus(CANCELLED, now, null);
                OrderTable.finish(c, cancelled);
                return cancelled;
            }
            HoldingTable.delete(c, sold);
            OrderTable.clearHolding(c, sold);
            closed = order.withStatus(CLOSED, now, null);
        }
        OrderTable.finish(c, closed);
        QuoteTable.trade(c, order.symbol(), order.quantity(), priceMoves.get());
        return closed;
    }

    /** A sell that cannot proceed, kept as a cancelled order (nothing charged) so that the user sees its id. */
    private static Order cancelled(Connection c, int accountId, int orderId, String symbol, double quantity,
                                   Instant now) throws SQLException {
        Order order = new Order(orderId, accountId, SELL, CANCELLED, now, now, quantity, NOTHING, NOTHING, symbol,
                null);
        OrderTable.insert(c, order);
        return order;
    }

    /** An action for a user id that has no account (or none given). */
    public static TradeRefusal unknownUser(String userId) {
        return new TradeRefusal(TradeRefusal.Reason.UNKNOWN_USER, "there is no user "
                + (userId == null ? "(none given)" : shown(userId)));
    }

    /** A registration for a user id that is taken. */
    public static TradeRefusal userTaken(String userId) {
        return new TradeRefusal(TradeRefusal.Reason.DUPLICATE_USER, "the user id " + shown(userId)
                + " is taken; choose another");
    }

    /** User text in a message, cut short: a refusal's line stays a line. */
    public static String shown(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}

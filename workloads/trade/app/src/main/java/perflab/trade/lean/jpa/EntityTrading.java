package perflab.trade.lean.jpa;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityNotFoundException;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Order;
import perflab.trade.lean.TradeRefusal;
import perflab.trade.lean.data.Trading;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

import static jakarta.persistence.LockModeType.PESSIMISTIC_WRITE;
import static perflab.trade.contract.TradeRules.BUY;
import static perflab.trade.contract.TradeRules.CANCELLED;
import static perflab.trade.contract.TradeRules.CLOSED;
import static perflab.trade.contract.TradeRules.OPEN;
import static perflab.trade.contract.TradeRules.SELL;

/**
 * DayTrader's rules of buying, selling and completing (the JDBC mode's Trading, step for step) on managed entities,
 * inside the caller's transaction; the changes are written when it commits. Ids come from the caller. Nothing is
 * changed before a refusal.
 *
 * <p>What the JDBC mode changes in one UPDATE (balance = balance + ?, volume = volume + ?) an entity changes by
 * read, modify and flush; so a row that is changed is read under its row lock (SELECT ... FOR UPDATE), in the JDBC
 * mode's order (holding, account, quote), and the first time the transaction reads it: Hibernate does not read a
 * row again that it holds already, and a copy read without the lock would be stale. That is why a price is read as
 * a value, never as a quote entity, before the completion locks the quote.
 */
final class EntityTrading {
    private static final BigDecimal NOTHING = new BigDecimal("0.00");
    private static final String PRICE = "select q.price from QuoteEntity q where q.symbol = :symbol";
    // one statement for the buy and the sell that name the holding, as the JDBC mode does
    private static final String FORGET_HOLDING =
            "update OrderEntity o set o.holdingId = null where o.holdingId = :holdingId";

    private final Supplier<RandomGenerator> priceMoves;

    /** @param priceMoves the random numbers that move a quote's price after a trade */
    EntityTrading(Supplier<RandomGenerator> priceMoves) {
        this.priceMoves = priceMoves;
    }

    /** An open buy order at the quote's current price, paid for at once (no check for funds, as in DayTrader). */
    OrderEntity buy(EntityManager em, int accountId, String symbol, double quantity, int orderId, Instant now) {
        BigDecimal price = price(em, symbol).orElseThrow(() -> new TradeRefusal(
                TradeRefusal.Reason.UNKNOWN_SYMBOL, "there is no stock with the symbol " + Trading.shown(symbol)));
        OrderEntity order = new OrderEntity(new Order(orderId, accountId, BUY, OPEN, now, null, quantity, price,
                TradeRules.ORDER_FEE, symbol, null));
        em.persist(order);
        lockedAccount(em, accountId).addToBalance(Trading.cashFlow(BUY, price, quantity));
        return order;
    }

    /**
     * An open sell order of the whole holding at the current price, credited at once; the holding is marked as in
     * flight. A holding that is gone or already in flight gives a cancelled order and changes nothing else.
     */
    OrderEntity sell(EntityManager em, int accountId, int holdingId, int orderId, Instant now) {
        HoldingEntity holding = em.find(HoldingEntity.class, holdingId, PESSIMISTIC_WRITE);
        if (holding == null) {
            return cancelled(em, accountId, orderId, null, 0, now);
        }
        if (holding.accountId() != accountId) {
            throw new TradeRefusal(TradeRefusal.Reason.NOT_YOUR_HOLDING, "holding " + holdingId + " is not yours");
        }
        if (holding.inFlight()) {
            return cancelled(em, accountId, orderId, holding.symbol(), holding.quantity(), now);
        }
        BigDecimal price = price(em, holding.symbol()).orElseThrow(() -> new EntityNotFoundException(
                "holding " + holdingId + " names the missing quote " + holding.symbol()));
        OrderEntity order = new OrderEntity(new Order(orderId, accountId, SELL, OPEN, now, null, holding.quantity(),
                price, TradeRules.ORDER_FEE, holding.symbol(), holdingId));
        em.persist(order);
        holding.markSellInFlight();
        lockedAccount(em, accountId).addToBalance(Trading.cashFlow(SELL, price, holding.quantity()));
        return order;
    }

    /** Completes the order {@code orderId}, read under its lock so that only one completion of it proceeds. */
    Order complete(EntityManager em, int orderId, int holdingId, Instant now) {
        OrderEntity order = em.find(OrderEntity.class, orderId, PESSIMISTIC_WRITE);
        if (order == null) {
            throw new TradeRefusal(TradeRefusal.Reason.BAD_INPUT, "there is no order " + orderId);
        }
        return complete(em, order, holdingId, now);
    }

    /**
     * Completes an open order, locked or created in this transaction: a buy creates its holding ({@code
     * holdingId}), a sell deletes its holding and every order's reference to it; the order is closed and its quote
     * moves. An order that is not open is returned unchanged, so that a repeated completion does nothing.
     */
    Order complete(EntityManager em, OrderEntity order, int holdingId, Instant now) {
        if (!order.isOpen()) {
            return order.toOrder();
        }
        if (order.isBuy()) {
            em.persist(new HoldingEntity(holdingId, order.price(), order.quantity(), now, order.accountId(),
                    order.symbol()));
            order.finish(CLOSED, now, holdingId);
        } else {
            Integer sold = order.holdingId();
            HoldingEntity holding = sold == null ? null : em.find(HoldingEntity.class, sold, PESSIMISTIC_WRITE);
            if (holding == null) {
                // deleted behind the sell's back: cancel it and take back its credit, so that the books balance
                lockedAccount(em, order.accountId()).addToBalance(
                        Trading.cashFlow(SELL, order.price(), order.quantity()).negate());
                order.finish(CANCELLED, now, null);
                return order.toOrder();
            }
            em.remove(holding);
            em.createQuery(FORGET_HOLDING).setParameter("holdingId", sold).executeUpdate();
            order.finish(CLOSED, now, null);
        }
        trade(em, order.symbol(), order.quantity());
        return order.toOrder();
    }

    /** Moves the quote after a trade, under the quote's row lock, so that concurrent trades of one stock all count. */
    private void trade(EntityManager em, String symbol, double quantity) {
        QuoteEntity quote = em.find(QuoteEntity.class, symbol, PESSIMISTIC_WRITE);
        if (quote == null) {
            throw new EntityNotFoundException("quote " + symbol + " vanished while an order of it completed");
        }
        RandomGenerator random = priceMoves.get();
        quote.trade(TradeRules.nextPrice(quote.price(), random.nextDouble(), random.nextBoolean()), quantity);
    }

    private static Optional<BigDecimal> price(EntityManager em, String symbol) {
        List<BigDecimal> prices = em.createQuery(PRICE, BigDecimal.class).setParameter("symbol", symbol)
                .getResultList();
        return prices.isEmpty() ? Optional.empty() : Optional.of(prices.get(0));
    }

    private static AccountEntity lockedAccount(EntityManager em, int accountId) {
        AccountEntity account = em.find(AccountEntity.class, accountId, PESSIMISTIC_WRITE);
        if (account == null) {
            throw new EntityNotFoundException("account " + accountId + " vanished during a trade");
        }
        return account;
    }

    /** A sell that cannot proceed, kept as a cancelled order (nothing charged) so that the user sees its id. */
    private static OrderEntity cancelled(EntityManager em, int accountId, int orderId, String symbol,
                                         double quantity, Instant now) {
        OrderEntity order = new OrderEntity(new Order(orderId, accountId, SELL, CANCELLED, now, now, quantity,
                NOTHING, NOTHING, symbol, null));
        em.persist(order);
        return order;
    }
}

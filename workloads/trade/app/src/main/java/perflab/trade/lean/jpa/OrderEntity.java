package perflab.trade.lean.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Order;

import java.math.BigDecimal;
import java.time.Instant;

/** A row of orders (DayTrader's OrderDataBean on ORDEREJB; ORDER is a reserved word). */
@Entity
@Table(name = "orders")
class OrderEntity {
    @Id
    @Column(name = "orderid")
    private int orderId;
    @Column(name = "account_accountid")
    private int accountId;
    @Column(name = "ordertype")
    private String type;
    @Column(name = "orderstatus")
    private String status;
    @Column(name = "opendate")
    private Instant openDate;
    @Column(name = "completiondate")
    private Instant completionDate;
    @Column(name = "quantity")
    private double quantity;
    @Column(name = "price")
    private BigDecimal price;
    @Column(name = "orderfee")
    private BigDecimal fee;
    @Column(name = "quote_symbol")
    private String symbol;
    /** Null before a buy completes and once the holding is sold. */
    @Column(name = "holding_holdingid")
    private Integer holdingId;

    /** For the JPA provider, which makes entities by reflection. */
    protected OrderEntity() {
    }

    /** The row of a new order, as the record has it. */
    OrderEntity(Order o) {
        this.orderId = o.orderId();
        this.accountId = o.accountId();
        this.type = o.type();
        this.status = o.status();
        this.openDate = o.openDate();
        this.completionDate = o.completionDate();
        this.quantity = o.quantity();
        this.price = o.price();
        this.fee = o.fee();
        this.symbol = o.symbol();
        this.holdingId = o.holdingId();
    }

    int accountId() {
        return accountId;
    }

    String symbol() {
        return symbol;
    }

    double quantity() {
        return quantity;
    }

    BigDecimal price() {
        return price;
    }

    Integer holdingId() {
        return holdingId;
    }

    boolean isOpen() {
        return TradeRules.OPEN.equals(status);
    }

    boolean isBuy() {
        return TradeRules.BUY.equals(type);
    }

    /** A status change at {@code when}; a completion also links or forgets the holding. */
    void finish(String newStatus, Instant when, Integer newHoldingId) {
        status = newStatus;
        completionDate = when;
        holdingId = newHoldingId;
    }

    /** Closed and now shown to its user: completed, the holding kept. */
    void alerted(Instant when) {
        status = TradeRules.COMPLETED;
        completionDate = when;
    }

    Order toOrder() {
        return new Order(orderId, accountId, type, status, openDate, completionDate, quantity, price, fee, symbol,
                holdingId);
    }
}

package perflab.trade.lean.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import perflab.trade.lean.Holding;

import java.math.BigDecimal;
import java.time.Instant;

/** A row of holding: shares bought and not yet sold (DayTrader's HoldingDataBean). */
@Entity
@Table(name = "holding")
class HoldingEntity {
    @Id
    @Column(name = "holdingid")
    private int holdingId;
    @Column(name = "purchaseprice")
    private BigDecimal purchasePrice;
    @Column(name = "quantity")
    private double quantity;
    @Column(name = "purchasedate")
    private Instant purchaseDate;
    @Column(name = "account_accountid")
    private int accountId;
    @Column(name = "quote_symbol")
    private String symbol;

    /** For the JPA provider, which makes entities by reflection. */
    protected HoldingEntity() {
    }

    HoldingEntity(int holdingId, BigDecimal purchasePrice, double quantity, Instant purchaseDate, int accountId,
                  String symbol) {
        this.holdingId = holdingId;
        this.purchasePrice = purchasePrice;
        this.quantity = quantity;
        this.purchaseDate = purchaseDate;
        this.accountId = accountId;
        this.symbol = symbol;
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

    /** Whether a sell of it waits for completion: DayTrader's epoch-0 purchase date (the table has no status). */
    boolean inFlight() {
        return Holding.SELL_IN_FLIGHT.equals(purchaseDate);
    }

    void markSellInFlight() {
        purchaseDate = Holding.SELL_IN_FLIGHT;
    }

    Holding toHolding(BigDecimal currentPrice) {
        return new Holding(holdingId, symbol, quantity, purchasePrice, purchaseDate, currentPrice);
    }
}

package perflab.trade.lean.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import perflab.trade.lean.Quote;

import java.math.BigDecimal;

/**
 * A row of quote (DayTrader's QuoteDataBean): a stock's price, its price at population (open1), change and volume.
 * Low and high are never written after population, as in DayTrader.
 */
@Entity
@Table(name = "quote")
class QuoteEntity {
    @Id
    @Column(name = "symbol")
    private String symbol;
    @Column(name = "companyname")
    private String companyName;
    @Column(name = "price")
    private BigDecimal price;
    @Column(name = "open1")
    private BigDecimal open;
    @Column(name = "low")
    private BigDecimal low;
    @Column(name = "high")
    private BigDecimal high;
    @Column(name = "change1")
    private double change;
    @Column(name = "volume")
    private double volume;

    /** For the JPA provider, which makes entities by reflection. */
    protected QuoteEntity() {
    }

    BigDecimal price() {
        return price;
    }

    /** After {@code quantity} shares traded: the new price, change = price - open, volume + quantity. */
    void trade(BigDecimal newPrice, double quantity) {
        price = newPrice;
        change = newPrice.subtract(open).doubleValue();
        volume += quantity;
    }

    Quote toQuote() {
        return new Quote(symbol, companyName, price, open, low, high, change, volume);
    }
}

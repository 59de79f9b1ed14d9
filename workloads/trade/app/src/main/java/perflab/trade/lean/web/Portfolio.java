package perflab.trade.lean.web;

import perflab.trade.lean.Account;
import perflab.trade.lean.Holding;

import java.math.BigDecimal;
import java.util.List;

/** A user's holdings with the sums the home and portfolio pages show (DayTrader's portfolio summary). */
public record Portfolio(List<Holding> holdings) {
    public Portfolio {
        holdings = List.copyOf(holdings);
    }

    public int count() {
        return holdings.size();
    }

    public BigDecimal marketValue() {
        return holdings.stream().map(Holding::marketValue).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    /** What the shares cost: market value minus gain. */
    public BigDecimal basis() {
        return marketValue().subtract(gain());
    }

    public BigDecimal gain() {
        return holdings.stream().map(Holding::gain).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    /** The account's gain since it opened: cash plus holdings now, minus the opening balance. */
    public BigDecimal totalGain(Account account) {
        return account.balance().add(marketValue()).subtract(account.openBalance());
    }
}

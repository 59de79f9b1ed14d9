package perflab.trade.contract;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TradeRulesTest {
    @Test
    void aPriceMovesByAtMostTenPercentInCents() {
        BigDecimal p = new BigDecimal("100.00");
        assertEquals(new BigDecimal("110.00"), TradeRules.nextPrice(p, 0.9999, false));
        assertEquals(new BigDecimal("90.00"), TradeRules.nextPrice(p, 0.9999, true));
        assertEquals(new BigDecimal("100.00"), TradeRules.nextPrice(p, 0.0, true));
        BigDecimal q = TradeRules.nextPrice(new BigDecimal("37.13"), 0.42, false);
        assertEquals(2, q.scale());
        assertTrue(q.compareTo(new BigDecimal("37.13")) > 0);
    }

    @Test
    void aPennyStockJumpsAndAnExpensiveOneSplits() {
        assertEquals(new BigDecimal("6.00"), TradeRules.nextPrice(new BigDecimal("0.01"), 0.5, true));
        assertEquals(new BigDecimal("200.50"), TradeRules.nextPrice(new BigDecimal("401.00"), 0.5, false));
        assertEquals(new BigDecimal("440.00"), TradeRules.nextPrice(new BigDecimal("400.00"), 0.9999, false),
                "exactly 400 is not over 400");
    }

    @Test
    void totalsIncludeTheFee() {
        assertEquals(new BigDecimal("1024.95"), TradeRules.buyTotal(new BigDecimal("10.00"), 100));
        assertEquals(new BigDecimal("975.05"), TradeRules.sellTotal(new BigDecimal("10.00"), 100));
    }
}

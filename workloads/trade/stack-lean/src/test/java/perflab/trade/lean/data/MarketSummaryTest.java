package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import perflab.trade.lean.DataAccess;
import perflab.trade.lean.MarketSummary;
import perflab.trade.lean.OrderProcessing;
import perflab.trade.lean.Quote;
import perflab.trade.lean.TradeSettings;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Runs against both data access modes. */
@ParameterizedClass
@EnumSource(DataAccess.class)
class MarketSummaryTest {
    private final DataAccess access;

    MarketSummaryTest(DataAccess access) {
        this.access = access;
    }

    private TradeFixture withInterval(Duration interval) {
        return new TradeFixture(access, TradeSettings.defaults().withOrderProcessing(OrderProcessing.SYNC)
                .withMarketSummaryInterval(interval));
    }

    @Test
    void theIndexIsTheMeanPriceAndTheMoversAreSortedByChange() {
        try (TradeFixture f = withInterval(Duration.ZERO).quotes("10.00", "20.00", "30.00", "40.00", "50.00",
                "60.00", "70.00")) {
            for (int i = 0; i < 7; i++) {
                // s:i moves by (i - 3) dollars: s:6 gains most, s:0 loses most
                f.sql("UPDATE quote SET price = price + ?, change1 = ?, volume = ? WHERE symbol = ?", i - 3, i - 3.0,
                        i * 10.0, "s:" + i);
            }
            MarketSummary m = f.service.marketSummary();
            assertEquals(new BigDecimal("40.00"), m.tsia());
            assertEquals(new BigDecimal("40.00"), m.openTsia());
            assertEquals(210.0, m.volume());
            assertEquals(List.of("s:6", "s:5", "s:4", "s:3", "s:2"), symbols(m.topGainers()));
            assertEquals(List.of("s:0", "s:1", "s:2", "s:3", "s:4"), symbols(m.topLosers()));
            assertEquals(new BigDecimal("0.00"), m.gainPercent());
        }
    }

    @Test
    void aZeroIntervalComputesEveryCall() {
        try (TradeFixture f = withInterval(Duration.ZERO).quotes("10.00", "30.00")) {
            assertEquals(new BigDecimal("20.00"), f.service.marketSummary().tsia());
            f.sql("UPDATE quote SET price = 50.00 WHERE symbol = 's:1'");
            MarketSummary m = f.service.marketSummary();
            assertEquals(new BigDecimal("30.00"), m.tsia());
            assertEquals(new BigDecimal("50.00"), m.gainPercent());
        }
    }

    @Test
    void aTwentySecondIntervalServesTheSameCopy() {
        try (TradeFixture f = withInterval(Duration.ofSeconds(20)).quotes("10.00", "30.00")) {
            MarketSummary first = f.service.marketSummary();
            f.sql("UPDATE quote SET price = 50.00 WHERE symbol = 's:1'");
            assertSame(first, f.service.marketSummary());
            f.service.populate(0, 3, 5);
            assertNotSame(first, f.service.marketSummary(), "a population replaces the copy");
        }
    }

    private static List<String> symbols(List<Quote> quotes) {
        return quotes.stream().map(Quote::symbol).toList();
    }
}

package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.DataAccess;
import perflab.trade.lean.PopulationReport;
import perflab.trade.lean.Profile;
import perflab.trade.lean.Quote;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs against both data access modes. */
@ParameterizedClass
@EnumSource(DataAccess.class)
class PopulationTest {
    private final DataAccess access;

    PopulationTest(DataAccess access) {
        this.access = access;
    }

    @Test
    void usersQuotesAndHoldingsAreMadeAsDayTraderMakesThem() {
        try (TradeFixture f = TradeFixture.sync(access)) {
            PopulationReport report = f.service.populate(40, 25, 7);
            assertEquals(40, report.users());
            assertEquals(25, report.quotes());
            assertEquals(40, f.count("account"));
            assertEquals(40, f.count("accountprofile"));
            assertEquals(25, f.count("quote"));
            assertEquals(report.holdings(), f.count("holding"));
            assertEquals(report.holdings(), f.count("orders"), "each holding is a real buy");
            assertTrue(report.holdings() > 40, "about five per user: " + report.holdings());
            assertEquals("0", f.value("SELECT COUNT(*) FROM orders WHERE orderstatus <> 'closed'"
                    + " OR ordertype <> 'buy' OR holding_holdingid IS NULL"));
            assertEquals("0", f.value("SELECT COUNT(*) FROM holding WHERE quote_symbol = 's:24'"),
                    "DayTrader never buys the last quote");
            assertEquals("0", f.value("SELECT COUNT(*) FROM (SELECT account_accountid FROM holding"
                    + " GROUP BY account_accountid HAVING COUNT(*) > 10) t"));

            assertEquals(new BigDecimal("1000000.00"), f.service.account("uid:0").orElseThrow().openBalance());
            assertEquals("0", f.value("SELECT COUNT(*) FROM account WHERE profile_userid <> 'uid:0'"
                    + " AND (openbalance < 200000 OR openbalance > 299999 OR openbalance <> FLOOR(openbalance))"));
            for (int i = 0; i < 40; i++) {
                Profile p = f.service.profile(TradeRules.userId(i)).orElseThrow();
                assertTrue(p.fullName().matches("first:\\d{1,3} last:\\d{1,4}"), p.fullName());
                assertTrue(p.address().matches("\\d{1,3} Oak St\\."), p.address());
                assertTrue(p.email().matches("uid" + i + "@\\d{1,2}\\.com"), p.email());
                assertTrue(p.creditCard().matches("\\d{1,2}-\\d{1,3}-\\d{1,3}-\\d{1,3}"), p.creditCard());
            }
            Quote q = f.service.quotes(List.of("s:24")).get(0);
            assertEquals("S24 Incorporated", q.companyName());
            assertEquals(0, q.volume());
            assertEquals(q.open(), q.price());
            assertEquals("0", f.value("SELECT COUNT(*) FROM quote WHERE open1 <> low OR open1 <> high"
                    + " OR open1 < 1 OR open1 > 200 OR open1 <> FLOOR(open1)"));
            assertTrue(f.service.login("uid:39", TradeRules.PASSWORD).isPresent());
            assertTrue(f.service.audit().clean(), f.service.audit().toString());
        }
    }

    @Test
    void theSameSeedGivesTheSameData() {
        try (TradeFixture a = TradeFixture.sync(access); TradeFixture b = TradeFixture.sync(access);
             TradeFixture c = TradeFixture.sync(access)) {
            a.service.populate(60, 30, 42);
            b.service.populate(60, 30, 42);
            c.service.populate(60, 30, 43);
            Map<String, String> first = a.snapshot(TradeFixture.UNREPEATABLE);
            assertEquals(first, b.snapshot(TradeFixture.UNREPEATABLE));
            assertNotEquals(first.get("quote"), c.snapshot(TradeFixture.UNREPEATABLE).get("quote"));
        }
    }

    @Test
    void populatingAgainReplacesEverythingButTheKeys() {
        try (TradeFixture f = TradeFixture.sync(access)) {
            f.service.populate(30, 20, 1);
            f.register("ru:1", "5.00");
            f.service.populate(10, 5, 2);
            assertEquals(10, f.count("account"));
            assertEquals(5, f.count("quote"));
            assertTrue(f.service.account("ru:1").isEmpty());
            assertTrue(f.service.account("uid:0").orElseThrow().accountId() >= 30, "keygen moved on");
            assertTrue(f.service.audit().clean());
        }
    }

    @Test
    void impossibleSizesAreRefused() {
        try (TradeFixture f = TradeFixture.sync(access)) {
            assertThrows(IllegalArgumentException.class, () -> f.service.populate(-1, 10, 1));
            assertThrows(IllegalArgumentException.class, () -> f.service.populate(10, 0, 1));
        }
    }
}

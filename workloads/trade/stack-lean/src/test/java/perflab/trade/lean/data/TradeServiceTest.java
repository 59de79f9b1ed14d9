package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Account;
import perflab.trade.lean.DataAccess;
import perflab.trade.lean.Holding;
import perflab.trade.lean.Order;
import perflab.trade.lean.OrderProcessing;
import perflab.trade.lean.Profile;
import perflab.trade.lean.Quote;
import perflab.trade.lean.TradeRefusal;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs against both data access modes. */
@ParameterizedClass
@EnumSource(DataAccess.class)
class TradeServiceTest {
    private final DataAccess access;

    TradeServiceTest(DataAccess access) {
        this.access = access;
    }

    private static void assertRefused(TradeRefusal.Reason reason, Executable call) {
        assertEquals(reason, assertThrows(TradeRefusal.class, call).reason());
    }

    @Test
    void aBuyPaysPriceTimesQuantityPlusFeeCreatesTheHoldingAndMovesTheQuote() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("10.00", "20.00")) {
            f.register("u1", "10000.00");
            Order order = f.service.buy("u1", "s:1", 100);
            assertEquals(TradeRules.CLOSED, order.status());
            assertEquals(new BigDecimal("20.00"), order.price());
            assertEquals(TradeRules.ORDER_FEE, order.fee());
            assertEquals(new BigDecimal("7975.05"), f.balance("u1"));

            List<Holding> holdings = f.service.holdings("u1");
            assertEquals(1, holdings.size());
            Holding h = holdings.get(0);
            assertEquals(order.holdingId(), h.holdingId());
            assertEquals(100, h.quantity());
            assertEquals(new BigDecimal("20.00"), h.purchasePrice());
            assertFalse(h.inFlight());

            Quote q = f.service.quotes(List.of("s:1")).get(0);
            assertTrue(q.price().compareTo(new BigDecimal("18.00")) >= 0
                    && q.price().compareTo(new BigDecimal("22.00")) <= 0, "moved by at most 10%: " + q.price());
            assertEquals(q.price().subtract(q.open()).doubleValue(), q.change(), 1e-9);
            assertEquals(100, q.volume());
            assertEquals(new BigDecimal("20.00"), q.low(), "low and high stay as populated");
            assertEquals(q.price(), h.currentPrice());
            assertEquals(h.marketValue().subtract(new BigDecimal("2000.00")), h.gain());
        }
    }

    @Test
    void aSellCreditsPriceTimesQuantityMinusFeeAndRemovesTheHolding() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("10.00")) {
            f.register("u1", "10000.00");
            Order buy = f.service.buy("u1", "s:0", 100);
            BigDecimal priceNow = f.service.quotes(List.of("s:0")).get(0).price();
            Order sell = f.service.sell("u1", buy.holdingId());
            assertEquals(TradeRules.CLOSED, sell.status());
            assertEquals(TradeRules.SELL, sell.type());
            assertEquals(priceNow, sell.price());
            assertEquals(100, sell.quantity());
            BigDecimal expected = new BigDecimal("10000.00").subtract(new BigDecimal("1024.95"))
                    .add(priceNow.multiply(BigDecimal.valueOf(100))).subtract(new BigDecimal("24.95"));
            assertEquals(0, expected.compareTo(f.balance("u1")), expected + " vs " + f.balance("u1"));
            assertTrue(f.service.holdings("u1").isEmpty());
            assertEquals("0", f.value("SELECT COUNT(*) FROM orders WHERE holding_holdingid IS NOT NULL"),
                    "the sold holding is forgotten by its buy and its sell");
            assertEquals(200, f.service.quotes(List.of("s:0")).get(0).volume());
            assertTrue(f.service.audit().clean());
        }
    }

    @Test
    void aPennyStockJumpsAndAnExpensiveOneSplitsWhenTraded() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("0.01", "401.00")) {
            f.register("u1", "10000.00");
            f.service.buy("u1", "s:0", 1);
            f.service.buy("u1", "s:1", 1);
            List<Quote> q = f.service.quotes(List.of("s:0", "s:1"));
            assertEquals(new BigDecimal("6.00"), q.get(0).price());
            assertEquals(new BigDecimal("200.50"), q.get(1).price());
            assertEquals(200.50 - 401.00, q.get(1).change(), 1e-9);
        }
    }

    @Test
    void sellingAnotherUsersHoldingIsRefusedAndChangesNothing() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("10.00")) {
            f.register("u1", "10000.00");
            f.register("u2", "10000.00");
            Order buy = f.service.buy("u1", "s:0", 10);
            Map<String, String> before = f.snapshot();
            assertRefused(TradeRefusal.Reason.NOT_YOUR_HOLDING, () -> f.service.sell("u2", buy.holdingId()));
            assertEquals(before, f.snapshot());
            assertEquals(new BigDecimal("10000.00"), f.balance("u2"));
        }
    }

    @Test
    void aSecondSellOfTheSameHoldingIsCancelledAndPaysNothing() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("10.00")) {
            f.register("u1", "10000.00");
            Order buy = f.service.buy("u1", "s:0", 10);
            f.service.sell("u1", buy.holdingId());
            BigDecimal balance = f.balance("u1");
            Order again = f.service.sell("u1", buy.holdingId());
            assertEquals(TradeRules.CANCELLED, again.status());
            assertEquals(balance, f.balance("u1"));
            assertEquals(TradeRules.CANCELLED,
                    f.value("SELECT orderstatus FROM orders WHERE orderid = ?", again.orderId()));
            assertTrue(f.service.audit().clean());
        }
    }

    @Test
    void sellingAHoldingWhoseSellIsInFlightIsCancelled() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("10.00")) {
            f.register("u1", "10000.00");
            Order buy = f.service.buy("u1", "s:0", 10);
            // what an asynchronous sell leaves until its completion: DayTrader's epoch-0 marker
            f.sql("UPDATE holding SET purchasedate = ? WHERE holdingid = ?", LocalDateTime.of(1970, 1, 1, 0, 0),
                    buy.holdingId());
            assertTrue(f.service.holdings("u1").get(0).inFlight());
            BigDecimal balance = f.balance("u1");
            Order sell = f.service.sell("u1", buy.holdingId());
            assertEquals(TradeRules.CANCELLED, sell.status());
            assertEquals(balance, f.balance("u1"));
            assertEquals(1, f.service.holdings("u1").size());
        }
    }

    @Test
    void badQuantitiesAndUnknownSymbolsAreRefusedWithoutTouchingTheBalance() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("10.00")) {
            f.register("u1", "10000.00");
            Map<String, String> before = f.dataSnapshot();
            for (double q : new double[]{0, -1, -0.0, Double.NaN, Double.POSITIVE_INFINITY, 100_001}) {
                assertRefused(TradeRefusal.Reason.BAD_INPUT, () -> f.service.buy("u1", "s:0", q));
            }
            for (String q : new String[]{"abc", "", " ", null, "1e3", "NaN", "-5", "0", "0.0", "12.5.3", "0x10",
                    "100001", "9999999999999999"}) {
                assertRefused(TradeRefusal.Reason.BAD_INPUT, () -> f.service.buy("u1", "s:0", q));
            }
            assertRefused(TradeRefusal.Reason.UNKNOWN_SYMBOL, () -> f.service.buy("u1", "s:999", 1));
            assertRefused(TradeRefusal.Reason.UNKNOWN_SYMBOL, () -> f.service.buy("u1", "", 1));
            assertRefused(TradeRefusal.Reason.BAD_INPUT, () -> f.service.buy("u1", null, 1));
            assertEquals(before, f.dataSnapshot());
            assertEquals(TradeRules.CLOSED, f.service.buy("u1", "s:0", " 37.0 ").status(),
                    "DayTrader's traffic sends quantities as 37.0");
        }
    }

    @Test
    void actionsOfAnUnknownUserAreRefused() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("10.00")) {
            assertRefused(TradeRefusal.Reason.UNKNOWN_USER, () -> f.service.buy("nobody", "s:0", 1));
            assertRefused(TradeRefusal.Reason.UNKNOWN_USER, () -> f.service.buy(null, "s:0", 1));
            assertRefused(TradeRefusal.Reason.UNKNOWN_USER, () -> f.service.sell("nobody", 0));
            assertRefused(TradeRefusal.Reason.UNKNOWN_USER,
                    () -> f.service.updateProfile("nobody", "pw", "n", "a", "e", "c"));
            assertEquals(Optional.empty(), f.service.account("nobody"));
            assertEquals(Optional.empty(), f.service.profile("nobody"));
            assertTrue(f.service.holdings("nobody").isEmpty());
            assertTrue(f.service.closedOrders("nobody").isEmpty());
            f.service.logout("nobody");
            assertEquals(0, f.count("orders"));
        }
    }

    @Test
    void loginChecksThePasswordAndCountsLoginsAndLogouts() {
        try (TradeFixture f = TradeFixture.sync(access)) {
            Account created = f.register("u1", "100.00");
            assertEquals(Optional.empty(), f.service.login("u1", "wrong"));
            assertEquals(Optional.empty(), f.service.login("u1", ""));
            assertEquals(Optional.empty(), f.service.login("u2", "pw-u1"));
            assertEquals(Optional.empty(), f.service.login(null, null));
            Account in = f.service.login("u1", "pw-u1").orElseThrow();
            assertEquals(created.accountId(), in.accountId());
            assertEquals(1, in.loginCount());
            assertFalse(in.lastLogin().isBefore(created.lastLogin()));
            f.service.logout("u1");
            assertEquals(1, f.service.account("u1").orElseThrow().logoutCount());
        }
    }

    @Test
    void thePasswordIsStoredOnlyAsASaltedHash() {
        try (TradeFixture f = TradeFixture.sync(access)) {
            f.service.register("u1", "s3cret", "A", "B", "C", "D", BigDecimal.TEN);
            f.service.register("u2", "s3cret", "A", "B", "C", "D", BigDecimal.TEN);
            String one = f.value("SELECT passwd FROM accountprofile WHERE userid = 'u1'");
            String two = f.value("SELECT passwd FROM accountprofile WHERE userid = 'u2'");
            assertFalse(one.contains("s3cret"));
            assertTrue(one.startsWith("pbkdf2-sha256:" + Passwords.ITERATIONS + ":"), one);
            assertNotEquals(one, two, "each user has a salt of its own");
            assertEquals("0", f.value("SELECT COUNT(*) FROM accountprofile WHERE passwd LIKE '%s3cret%'"));
        }
    }

    @Test
    void registeringATakenUserIdIsRefused() {
        try (TradeFixture f = TradeFixture.sync(access)) {
            f.register("u1", "100.00");
            Map<String, String> before = f.snapshot();
            TradeRefusal refusal = assertThrows(TradeRefusal.class, () -> f.register("u1", "5.00"));
            assertEquals(TradeRefusal.Reason.DUPLICATE_USER, refusal.reason());
            assertTrue(refusal.getMessage().contains("u1"), refusal.getMessage());
            assertEquals(before.get("account"), f.snapshot().get("account"));
            assertEquals(before.get("accountprofile"), f.snapshot().get("accountprofile"));
        }
    }

    @Test
    void registrationFieldsAreChecked() {
        try (TradeFixture f = TradeFixture.sync(access)) {
            assertRefused(TradeRefusal.Reason.BAD_INPUT,
                    () -> f.service.register("a b", "pw", "n", "a", "e", "c", BigDecimal.ONE));
            assertRefused(TradeRefusal.Reason.BAD_INPUT,
                    () -> f.service.register("u1", "", "n", "a", "e", "c", BigDecimal.ONE));
            assertRefused(TradeRefusal.Reason.BAD_INPUT,
                    () -> f.service.register("u1", "pw", "n".repeat(251), "a", "e", "c", BigDecimal.ONE));
            assertRefused(TradeRefusal.Reason.BAD_INPUT,
                    () -> f.service.register("u1", "pw", "n", "a", "e", "c", new BigDecimal("-1")));
            assertRefused(TradeRefusal.Reason.BAD_INPUT,
                    () -> f.service.register("u1", "pw", "n", "a", "e", "c", null));
            assertEquals(0, f.count("accountprofile"));
        }
    }

    @Test
    void updatingTheProfileReplacesEveryFieldAndThePassword() {
        try (TradeFixture f = TradeFixture.sync(access)) {
            f.register("u1", "100.00");
            Profile updated = f.service.updateProfile("u1", "new-pw", "New Name", "2 Elm St.", "n@x.com", "9-9");
            assertEquals(updated, f.service.profile("u1").orElseThrow());
            assertTrue(f.service.login("u1", "new-pw").isPresent());
            assertTrue(f.service.login("u1", "pw-u1").isEmpty());
        }
    }

    @Test
    void quotesComeInTheOrderAskedWithoutUnknownSymbols() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("1.00", "2.00", "3.00")) {
            List<Quote> quotes = f.service.quotes(List.of("s:2", "nope", "s:0", "s:2"));
            assertEquals(List.of("s:2", "s:0"), quotes.stream().map(Quote::symbol).toList());
            assertEquals("S2 Incorporated", quotes.get(0).companyName());
            assertRefused(TradeRefusal.Reason.BAD_INPUT, () -> f.service.quotes(List.of()));
            assertRefused(TradeRefusal.Reason.BAD_INPUT, () -> f.service.quotes(
                    List.of("s:0", "s:1", "s:2", "s:3", "s:4", "s:5", "s:6", "s:7", "s:8", "s:9", "s:10")));
        }
    }

    @Test
    void closedOrdersAreAlertedOnceAndThenCompleted() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("10.00")) {
            f.register("u1", "10000.00");
            Order a = f.service.buy("u1", "s:0", 1);
            Order b = f.service.buy("u1", "s:0", 2);
            List<Order> alerts = f.service.closedOrders("u1");
            assertEquals(List.of(a.orderId(), b.orderId()), alerts.stream().map(Order::orderId).toList());
            assertTrue(f.service.closedOrders("u1").isEmpty());
            assertEquals("2", f.value("SELECT COUNT(*) FROM orders WHERE orderstatus = 'completed'"));
            assertTrue(f.service.audit().clean(), "completed orders count like closed ones");
        }
    }

    @Test
    void completingAnOrderAgainChangesNothing() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("10.00")) {
            f.register("u1", "10000.00");
            Order buy = f.service.buy("u1", "s:0", 1);
            Map<String, String> before = f.snapshot();
            assertEquals(buy, f.service.completeOrder(buy.orderId()));
            assertEquals(before, f.snapshot());
            assertRefused(TradeRefusal.Reason.BAD_INPUT, () -> f.service.completeOrder(123_456));
        }
    }

    @Test
    void anOpenSellCompletesOrIsCancelledAndRefundedWhenItsHoldingWasDeleted() {
        try (TradeFixture f = TradeFixture.sync(access).quotes("10.00")) {
            int account = f.register("u1", "10000.00").accountId();
            int kept = f.service.buy("u1", "s:0", 10).holdingId();
            int deleted = f.service.buy("u1", "s:0", 20).holdingId();
            BigDecimal beforeSells = f.balance("u1");
            // what an asynchronous sell commits before its completion runs
            Transactions transactions = new Transactions(f.dataSource);
            Trading trading = new Trading(java.util.Random::new);
            Order sellKept = transactions.run("test", c -> trading.sell(c, account, kept, 900, UtcTime.now()));
            Order sellDeleted = transactions.run("test", c -> trading.sell(c, account, deleted, 901, UtcTime.now()));
            assertTrue(f.service.holdings("u1").stream().allMatch(Holding::inFlight));
            f.sql("DELETE FROM holding WHERE holdingid = ?", deleted);

            assertEquals(TradeRules.CLOSED, f.service.completeOrder(sellKept.orderId()).status());
            assertEquals(TradeRules.CANCELLED, f.service.completeOrder(sellDeleted.orderId()).status());
            BigDecimal expected = beforeSells.add(TradeRules.sellTotal(sellKept.price(), 10));
            assertEquals(expected, f.balance("u1"), "the cancelled sell's credit was taken back");
            assertTrue(f.service.holdings("u1").isEmpty());
            assertTrue(f.service.audit().clean(), f.service.audit().toString());
        }
    }

    @Test
    void asynchronousOrdersAreOpenForTheUserAndAllCompletedWhenTheServiceCloses() {
        try (TradeFixture f = TradeFixture.of(access, OrderProcessing.ASYNC).quotes("10.00", "20.00")) {
            f.register("u1", "1000000.00");
            for (int i = 0; i < 200; i++) {
                Order order = f.service.buy("u1", "s:" + (i % 2), 1 + i % 7);
                assertEquals(TradeRules.OPEN, order.status());
                assertNull(order.holdingId());
            }
            f.service.close();
            assertEquals("0", f.value("SELECT COUNT(*) FROM orders WHERE orderstatus <> 'closed'"));
            assertEquals(200, f.count("holding"));
            assertEquals(0, f.failedCompletions());
            assertTrue(f.service.audit().clean(), f.service.audit().toString());
        }
    }
}

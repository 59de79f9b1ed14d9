package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.AuditReport;
import perflab.trade.lean.DataAccess;
import perflab.trade.lean.Holding;
import perflab.trade.lean.OrderProcessing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs against both data access modes. */
@ParameterizedClass
@EnumSource(DataAccess.class)
class AuditTest {
    private static final int USERS = 20;
    private static final int QUOTES = 8;

    private final DataAccess access;

    AuditTest(DataAccess access) {
        this.access = access;
    }

    /** A user's next action: a buy, a sell of one of its holdings, or a look at its alerts. */
    private static void trade(TradeFixture f, Random random) {
        String user = TradeRules.userId(random.nextInt(USERS));
        int action = random.nextInt(10);
        if (action < 4) {
            f.service.buy(user, TradeRules.symbol(random.nextInt(QUOTES)), 1 + random.nextInt(200));
        } else if (action < 8) {
            List<Holding> holdings = f.service.holdings(user);
            if (!holdings.isEmpty()) {
                f.service.sell(user, holdings.get(random.nextInt(holdings.size())).holdingId());
            }
        } else {
            f.service.closedOrders(user);
        }
    }

    @ParameterizedTest
    @EnumSource(OrderProcessing.class)
    void theBooksAgreeAfterBuysAndSells(OrderProcessing mode) {
        try (TradeFixture f = TradeFixture.of(access, mode)) {
            f.service.populate(USERS, QUOTES, 3);
            Random random = new Random(11);
            for (int i = 0; i < 400; i++) {
                trade(f, random);
            }
            f.service.close();
            AuditReport report = f.service.audit();
            assertEquals(USERS, report.accountsChecked());
            assertTrue(report.clean(), report.toString());
            assertTrue(f.count("orders") > f.count("holding"), "sells happened");
        }
    }

    @ParameterizedTest
    @EnumSource(OrderProcessing.class)
    void theBooksAgreeAfterConcurrentBuysAndSells(OrderProcessing mode) throws Exception {
        try (TradeFixture f = TradeFixture.of(access, mode)) {
            f.service.populate(USERS, QUOTES, 4);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> traders = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    Random random = new Random(t);
                    traders.add(pool.submit(() -> {
                        for (int i = 0; i < 150; i++) {
                            trade(f, random);
                        }
                        return null;
                    }));
                }
                for (Future<?> trader : traders) {
                    trader.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdown();
            }
            f.service.close();
            assertEquals(0, f.failedCompletions());
            AuditReport report = f.service.audit();
            assertTrue(report.clean(), report.toString());
            assertTrue(f.count("orders") > f.count("holding"), "sells happened");
        }
    }

    @Test
    void aPlantedBalanceChangeIsFound() {
        try (TradeFixture f = TradeFixture.sync(access)) {
            f.service.populate(USERS, QUOTES, 5);
            f.sql("UPDATE account SET balance = balance + 1 WHERE profile_userid = 'uid:3'");
            AuditReport report = f.service.audit();
            assertEquals(1, report.violationCount());
            assertTrue(report.firstViolations().get(0).contains("(uid:3)"), report.toString());
        }
    }

    @Test
    void orphanHoldingsOpenOrdersAndWrongVolumesAreFound() {
        try (TradeFixture f = TradeFixture.sync(access)) {
            f.service.populate(USERS, QUOTES, 6);
            f.sql("INSERT INTO holding (holdingid, purchaseprice, quantity, purchasedate, account_accountid,"
                    + " quote_symbol) VALUES (999999, 1.00, 5, CURRENT_TIMESTAMP, 0, 's:0')");
            f.sql("UPDATE quote SET volume = volume + 5 WHERE symbol = 's:1'");
            f.sql("INSERT INTO orders (orderid, account_accountid, ordertype, orderstatus, quantity, price, orderfee)"
                    + " VALUES (999999, 0, 'buy', 'open', 1, 1.00, 24.95)");
            AuditReport report = f.service.audit();
            assertFalse(report.clean());
            String all = String.join("\n", report.firstViolations());
            assertTrue(all.contains("holding 999999"), all);
            assertTrue(all.contains("quote s:1 has volume"), all);
            assertTrue(all.contains("order 999999 of account 0 is still open"), all);
            assertEquals(3, report.violationCount(), all);
        }
    }

    @Test
    void atMostTenViolationsAreDescribedButAllAreCounted() {
        try (TradeFixture f = TradeFixture.sync(access)) {
            f.service.populate(USERS, QUOTES, 7);
            f.sql("UPDATE account SET balance = balance - 1");
            AuditReport report = f.service.audit();
            assertEquals(USERS, report.violationCount());
            assertEquals(AuditReport.SHOWN, report.firstViolations().size());
        }
    }
}

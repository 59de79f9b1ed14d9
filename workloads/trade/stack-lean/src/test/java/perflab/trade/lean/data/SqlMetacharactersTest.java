package perflab.trade.lean.data;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import perflab.trade.lean.DataAccess;
import perflab.trade.lean.Order;
import perflab.trade.lean.Profile;
import perflab.trade.lean.TradeInput;
import perflab.trade.lean.TradeRefusal;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SQL metacharacters in any parameter are data: every statement is parametrised, JPQL's too. */
@ParameterizedClass
@EnumSource(DataAccess.class)
class SqlMetacharactersTest {
    static final List<String> PAYLOADS = List.of(
            "s:1'; DROP TABLE quote; --",
            "uid:0' OR '1'='1",
            "x\"; DELETE FROM account; --",
            "'); TRUNCATE TABLE orders; --",
            "1 OR 1=1",
            "\\'; UPDATE account SET balance = 0; --",
            "%' OR userid LIKE '%");

    private final DataAccess access;
    private TradeFixture f;
    private Map<String, String> before;

    SqlMetacharactersTest(DataAccess access) {
        this.access = access;
    }

    @BeforeEach
    void tradeOnce() {
        f = TradeFixture.sync(access).quotes("10.00", "20.00");
        f.register("uid:0", "10000.00");
        f.register("uid:1", "10000.00");
        Order buy = f.service.buy("uid:0", "s:1", 10);
        // also takes an order id from every key block, so that ids taken below change no keygen row
        f.service.sell("uid:0", buy.holdingId());
        f.service.buy("uid:0", "s:1", 10);
        before = f.snapshot();
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void readsAndActionsWithMetacharactersChangeNothing() {
        for (String p : PAYLOADS) {
            Map<String, Runnable> calls = new LinkedHashMap<>();
            calls.put("login user", () -> assertTrue(f.service.login(p, "pw-uid:0").isEmpty()));
            calls.put("login password", () -> assertTrue(f.service.login("uid:0", p).isEmpty()));
            calls.put("logout", () -> f.service.logout(p));
            calls.put("account", () -> assertTrue(f.service.account(p).isEmpty()));
            calls.put("profile", () -> assertTrue(f.service.profile(p).isEmpty()));
            calls.put("holdings", () -> assertTrue(f.service.holdings(p).isEmpty()));
            calls.put("closed orders", () -> assertTrue(f.service.closedOrders(p).isEmpty()));
            calls.put("quotes", () -> assertTrue(f.service.quotes(List.of(p, "s:1' OR '1'='1")).isEmpty()));
            calls.put("buy user", () -> refused(() -> f.service.buy(p, "s:1", 1)));
            calls.put("buy symbol", () -> refused(() -> f.service.buy("uid:0", p, 1)));
            calls.put("buy quantity", () -> refused(() -> f.service.buy("uid:0", "s:1", p)));
            calls.put("sell user", () -> refused(() -> f.service.sell(p, 0)));
            calls.put("update profile", () -> refused(() -> f.service.updateProfile(p, "pw", "n", "a", "e", "c")));
            calls.put("register", () -> refused(() -> f.service.register(p, "pw", "n", "a", "e", "c", BigDecimal.ONE)));
            calls.put("holding id field", () -> refused(() -> TradeInput.parseHoldingId(p)));
            calls.put("money field", () -> refused(() -> TradeInput.parseMoney(p)));
            calls.forEach((name, call) -> {
                call.run();
                assertEquals(before, f.snapshot(), name + " with " + p);
            });
        }
    }

    @Test
    void metacharactersInTextFieldsAreStoredAsTheyAre() {
        int n = 0;
        for (String p : PAYLOADS) {
            String userId = "ru:" + n++;
            f.service.register(userId, p, p, p, p, p, BigDecimal.ONE);
            assertEquals(new Profile(userId, p, p, p, p), f.service.profile(userId).orElseThrow());
            assertTrue(f.service.login(userId, p).isPresent());
            Profile updated = f.service.updateProfile("uid:1", p, p, p, p, p);
            assertEquals(updated, f.service.profile("uid:1").orElseThrow());
        }
        Map<String, String> after = f.snapshot();
        for (String table : List.of("holding", "orders", "quote", "keygen")) {
            assertEquals(before.get(table), after.get(table), table);
        }
        assertEquals(2 + PAYLOADS.size(), f.count("account"));
        assertEquals(new BigDecimal("10000.00"), f.balance("uid:1"));
    }

    private static void refused(org.junit.jupiter.api.function.Executable call) {
        assertThrows(TradeRefusal.class, call);
    }
}

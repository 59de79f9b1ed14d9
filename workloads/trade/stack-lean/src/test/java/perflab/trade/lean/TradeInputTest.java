package perflab.trade.lean;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TradeInputTest {
    private static void assertBad(org.junit.jupiter.api.function.Executable parse) {
        TradeRefusal refusal = assertThrows(TradeRefusal.class, parse);
        assertEquals(TradeRefusal.Reason.BAD_INPUT, refusal.reason());
        assertEquals(400, refusal.reason().httpStatus());
        assertTrue(!refusal.getMessage().contains("\n"), "one line");
    }

    @Test
    void quantitiesArePositivePlainDecimalsUpToTheLimit() {
        assertEquals(37.0, TradeInput.parseQuantity("37.0"));
        assertEquals(5, TradeInput.parseQuantity(" 5 "));
        assertEquals(0.5, TradeInput.parseQuantity("0.5"));
        assertEquals(100_000, TradeInput.parseQuantity("100000"));
        for (String bad : new String[]{null, "", " ", "0", "0.00", "-1", "+1", "1e3", "NaN", "Infinity", "0x10",
                "1,5", "100000.01", "abc", "1 OR 1=1"}) {
            assertBad(() -> TradeInput.parseQuantity(bad));
        }
    }

    @Test
    void symbolsAreSplitTrimmedAndCounted() {
        assertEquals(List.of("s:1", "s:2"), TradeInput.parseSymbols(" s:1, s:2,,s:1 "));
        assertBad(() -> TradeInput.parseSymbols(""));
        assertBad(() -> TradeInput.parseSymbols(" , "));
        assertBad(() -> TradeInput.parseSymbols("a,b,c,d,e,f,g,h,i,j,k"));
        assertEquals(10, TradeInput.parseSymbols("a,b,c,d,e,f,g,h,i,j").size());
    }

    @Test
    void holdingIdsAndMoneyAreChecked() {
        assertEquals(12, TradeInput.parseHoldingId("12"));
        assertBad(() -> TradeInput.parseHoldingId("-1"));
        assertBad(() -> TradeInput.parseHoldingId("1.5"));
        assertBad(() -> TradeInput.parseHoldingId("9999999999"));
        assertEquals(new BigDecimal("1000000"), TradeInput.parseMoney("1000000"));
        assertEquals(new BigDecimal("10.50"), TradeInput.parseMoney("10.50"));
        assertBad(() -> TradeInput.parseMoney("1.234"));
        assertBad(() -> TradeInput.parseMoney("-5"));
        assertBad(() -> TradeInput.parseMoney("1000000000.01"));
    }

    @Test
    void userIdsAreLettersDigitsAndAFewMarks() {
        assertEquals("ru:host1700000000000:3", TradeInput.checkUserId("ru:host1700000000000:3"));
        assertBad(() -> TradeInput.checkUserId("uid:0' OR '1'='1"));
        assertBad(() -> TradeInput.checkUserId("<b>"));
        assertBad(() -> TradeInput.checkUserId(""));
        assertBad(() -> TradeInput.checkUserId("u".repeat(251)));
    }

    @Test
    void aNulIsRefusedInTextAndIsNoUserIdOnEitherDatabase() {
        assertThrows(TradeRefusal.class, () -> TradeInput.checkText("full name", "Bo\0b"));
        assertEquals("Bo b", TradeInput.checkText("full name", "Bo b"));
        assertFalse(TradeInput.isUserId("uid:1\0"), "a login with it asks no database");
        assertTrue(TradeInput.isUserId("uid:1"));
        assertFalse(perflab.trade.lean.data.Passwords.verify("uid:1\0", "xxx", id -> {
            throw new AssertionError("the database was asked about " + id);
        }));
    }

    @Test
    void orderProcessingNamesAreParsed() {
        assertEquals(OrderProcessing.ASYNC, OrderProcessing.parse(" Async "));
        assertEquals("sync", OrderProcessing.SYNC.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OrderProcessing.parse("2phase"));
        assertTrue(e.getMessage().contains("use sync or async"), e.getMessage());
    }
}

package perflab.trade;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TradeMixTest {
    private static final int PICKS = 100_000;
    /** Percentage points: more than four standard deviations of the largest share at 100,000 picks. */
    private static final double TOLERANCE = 0.7;

    private static void assertProportions(TradeMix mix, Map<PageKind, Double> percent) {
        assertEquals(100, percent.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
        Map<PageKind, Integer> counts = new EnumMap<>(PageKind.class);
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < PICKS; i++) {
            counts.merge(mix.pages().pick(random), 1, Integer::sum);
        }
        assertEquals(percent.keySet(), counts.keySet());
        percent.forEach((kind, expected) -> assertEquals(expected, 100.0 * counts.get(kind) / PICKS, TOLERANCE,
                mix.name() + " " + kind));
    }

    @Test
    void standardIsDayTradersScenarioRow() {
        assertProportions(TradeMix.STANDARD, Map.of(PageKind.HOME, 20.0, PageKind.QUOTE, 40.0, PageKind.LOGOUT, 4.0,
                PageKind.REGISTER, 2.0, PageKind.ACCOUNT, 10.0, PageKind.PORTFOLIO, 12.0, PageKind.BUY, 4.0,
                PageKind.SELL, 4.0, PageKind.UPDATE, 4.0));
        assertEquals(10, TradeMix.STANDARD.maxSymbols());
    }

    @Test
    void jmeterIsTwentyPercentRestAndTheJspSubMixWithoutTheWebsocket() {
        double scale = 80.0 / 92;
        Map<PageKind, Double> percent = new EnumMap<>(PageKind.class);
        percent.put(PageKind.REST_QUOTES, 20.0);
        percent.put(PageKind.QUOTE, 36 * scale);
        percent.put(PageKind.HOME, 16 * scale);
        percent.put(PageKind.PORTFOLIO, 15 * scale);
        percent.put(PageKind.ACCOUNT, 10 * scale);
        percent.put(PageKind.BUY, 4 * scale);
        percent.put(PageKind.SELL, 4 * scale);
        percent.put(PageKind.UPDATE, 2 * scale);
        percent.put(PageKind.REGISTER, 1 * scale);
        percent.put(PageKind.LOGOUT, 4 * scale);
        assertProportions(TradeMix.JMETER, percent);
        assertEquals(1, TradeMix.JMETER.maxSymbols());
    }

    @Test
    void anUnknownMixIsRefused() {
        assertEquals("--mix: 'browse' is not standard or jmeter",
                assertThrows(IllegalArgumentException.class, () -> TradeMix.named("browse")).getMessage());
    }
}

package perflab.trade.lean;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TradeSettingsTest {
    @Test
    void settingsNotGivenTakeTradesDefaults() {
        TradeSettings settings = TradeSettings.from(name -> null);
        assertEquals(OrderProcessing.SYNC, settings.orderProcessing());
        assertEquals(Duration.ofSeconds(20), settings.marketSummaryInterval());
        assertEquals(2000, settings.quoteCacheEntries(), "the server settings' default, seed 003's dynamic cache");
        assertEquals(TradeSettings.defaults().completionThreads(), settings.completionThreads());
    }

    @Test
    void givenSettingsAreReadByTheirServerSettingNames() {
        Map<String, String> given = Map.of("order-processing", "async", "market-summary-interval", "500ms",
                "cache", " 10000 ");
        TradeSettings settings = TradeSettings.from(given::get);
        assertEquals(OrderProcessing.ASYNC, settings.orderProcessing());
        assertEquals(Duration.ofMillis(500), settings.marketSummaryInterval());
        assertEquals(10000, settings.quoteCacheEntries());
    }

    @Test
    void aBadValueIsRefusedNamingItsFlag() {
        IllegalArgumentException cache = assertThrows(IllegalArgumentException.class,
                () -> TradeSettings.from(Map.of("cache", "lots")::get));
        assertTrue(cache.getMessage().startsWith("--cache must be a whole number"), cache.getMessage());
        IllegalArgumentException interval = assertThrows(IllegalArgumentException.class,
                () -> TradeSettings.from(Map.of("market-summary-interval", "soon")::get));
        assertTrue(interval.getMessage().startsWith("--market-summary-interval must be a time"), interval.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TradeSettings.from(Map.of("cache", "-1")::get));
    }
}

package perflab.core.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QuantitiesTest {
    @Test
    void durations() {
        assertEquals(Duration.ofMillis(500), Quantities.duration("--x", "500ms"));
        assertEquals(Duration.ofSeconds(30), Quantities.duration("--x", "30s"));
        assertEquals(Duration.ofSeconds(30), Quantities.duration("--x", "30"));
        assertEquals(Duration.ofMinutes(2), Quantities.duration("--x", "2m"));
        assertEquals(Duration.ofHours(8), Quantities.duration("--x", "8h"));
        assertEquals(Duration.ofMillis(1500), Quantities.duration("--x", "1.5s"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Quantities.duration("--duration", "ten"));
        assertTrue(e.getMessage().startsWith("--duration: 'ten' is not a duration"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.duration("--x", "-5s"));
    }

    @Test
    void sizes() {
        assertEquals(512L << 20, Quantities.size("--heap", "512m"));
        assertEquals(2L << 30, Quantities.size("--heap", "2G"));
        assertEquals(64L << 10, Quantities.size("--heap", "64k"));
        assertEquals(100, Quantities.size("--heap", "100"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.size("--heap", "lots"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.size("--heap", "99999999999999999999g"));
    }

    @Test
    void rates() {
        assertEquals(1000, Quantities.rate("--rate", "1000"));
        assertEquals(1000, Quantities.rate("--rate", "1000/s"));
        assertEquals(2500, Quantities.rate("--rate", "2.5k"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.rate("--rate", "0"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.rate("--rate", "-5"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.rate("--rate", "fast"));
    }

    @Test
    void counts() {
        assertEquals(500_000, Quantities.count("--requests", "500k"));
        assertEquals(1_000_000_000L, Quantities.count("--requests", "1000m"));
        assertEquals(42, Quantities.count("--requests", "42"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.count("--requests", "-1"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.count("--requests", "x"));
    }
}

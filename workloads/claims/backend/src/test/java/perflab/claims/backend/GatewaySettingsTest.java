package perflab.claims.backend;

import org.junit.jupiter.api.Test;
import perflab.core.sut.SutArgs;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GatewaySettingsTest {

    private static GatewaySettings parse(String... args) {
        return GatewaySettings.from(SutArgs.parse(args, GatewaySettings.NAMES));
    }

    @Test
    void theBackEndJvmWaitsForItsCompilationsUnlessToldOtherwise() {
        GatewaySettings defaults = parse();
        assertEquals(List.of("-XX:-BackgroundCompilation"), defaults.backendJvm());
        assertEquals(GatewaySettings.Backend.SEPARATE_JVM, defaults.backend());
        assertEquals(List.of("-Xmx256m", "-XX:+UseSerialGC"), parse("--backend-jvm", " -Xmx256m  -XX:+UseSerialGC ").backendJvm());
        assertEquals(List.of(), parse("--backend-jvm", "").backendJvm(), "\"\" means no flags at all");
    }

    @Test
    void timeoutsAreMillisecondsOrDurations() {
        assertEquals(500, parse("--backend-timeout", "500ms").backendTimeoutMs());
        assertEquals(10_000, parse("--backend-timeout", "10s").backendTimeoutMs());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse("--backend-timeout", "soon"));
        assertTrue(e.getMessage().contains("backend-timeout"), e.getMessage());
    }
}

package perflab.claims.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import perflab.testsupport.PerflabProcess;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** claims' own settings, given wrong, get one line naming the problem and exit 2; a stack's refusal is its reason. */
class ClaimsBadInputIT {
    @TempDir
    Path work;

    static Stream<Arguments> badSettings() {
        return Stream.of(
                Arguments.of(List.of("--sizes", "3k"), "--sizes: '3k' is not REQUEST/RESPONSE", "3k/10k"),
                Arguments.of(List.of("--sizes", "3k/3k", "--request-size", "10k"), "--sizes sets both sizes", "--request-size"),
                Arguments.of(List.of("--routing-field-position", "middle"), "--routing-field-position: 'middle'", "early or late"),
                Arguments.of(List.of("--backend-timeout", "0s"), "--backend-timeout must be", "1ms..600s"),
                Arguments.of(List.of("--backend-jvm", "Xmx1g"), "--backend-jvm: 'Xmx1g' is not a JVM flag", "start with -"));
    }

    @ParameterizedTest
    @MethodSource("badSettings")
    void aBadSettingIsOneLineAndExitTwo(List<String> flags, String expected, String hint) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("run", "claims"));
        args.addAll(flags);
        PerflabProcess.assertRefused(work, null, expected, hint, args.toArray(String[]::new));
    }

    /** The camel stack serves HTTP/1.1 only: its refusal of h2c ends the run (1) with its reason on the first line. */
    @Test
    void theCamelStackRefusesH2cWithItsReason() throws Exception {
        try (PerflabProcess p = PerflabProcess.startShort(work, "run", "claims", "--stack", "camel", "--http", "h2c",
                "--duration", "2s", "--warmup", "0s")) {
            assertEquals(1, p.await(Duration.ofSeconds(90)), p.err());
            String first = p.err().lines().findFirst().orElse("");
            assertTrue(first.contains("camel stack serves HTTP/1.1 only") && first.contains("http1"), p.err());
            assertFalse(p.err().contains("\tat "), p.err());
        }
    }
}

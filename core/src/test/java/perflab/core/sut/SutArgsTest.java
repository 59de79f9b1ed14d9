package perflab.core.sut;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SutArgsTest {
    @Test
    void numbersAndTheirOneLineErrors() {
        SutArgs args = SutArgs.parse(new String[] {"--threads", " 16 ", "--bytes", "5000000000", "--bad", "x"},
                Set.of("threads", "bytes", "bad"));
        assertEquals(16, args.getInt("threads", 1));
        assertEquals(5_000_000_000L, args.getLong("bytes", 1));
        assertEquals(7, args.getInt("missing", 7));
        assertEquals(8L, args.getLong("missing", 8));
        assertEquals("--bad must be an integer, got 'x'",
                assertThrows(IllegalArgumentException.class, () -> args.getInt("bad", 1)).getMessage());
        assertEquals("--bytes must be an integer, got '5000000000'",
                assertThrows(IllegalArgumentException.class, () -> args.getInt("bytes", 1)).getMessage());
        assertEquals("--bad must be an integer, got 'x'",
                assertThrows(IllegalArgumentException.class, () -> args.getLong("bad", 1)).getMessage());
    }

    @Test
    void unknownSettingIsAnError() {
        assertEquals("unknown SUT setting --thread; known: [threads]",
                assertThrows(IllegalArgumentException.class,
                        () -> SutArgs.parse(new String[] {"--thread", "8"}, Set.of("threads"))).getMessage());
    }
}

package perflab.history;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HistoryFileTest {
    private static final Map<String, String> HOME = Map.of("HOME", "/home/u");

    @Test
    void defaultsToTheUsersDataDirectory() {
        assertEquals(Optional.of(Path.of("/home/u/.local/share/perflab/history.sqlite")), HistoryFile.resolve(null, HOME));
        assertEquals(Optional.of(Path.of("/data/perflab/history.sqlite")),
                HistoryFile.resolve(null, Map.of("HOME", "/home/u", "XDG_DATA_HOME", "/data")));
        // a relative XDG_DATA_HOME is ignored, as the specification says
        assertEquals(Optional.of(Path.of("/home/u/.local/share/perflab/history.sqlite")),
                HistoryFile.resolve(null, Map.of("HOME", "/home/u", "XDG_DATA_HOME", "data")));
    }

    @Test
    void theFlagWinsOverTheEnvironment() {
        Map<String, String> env = Map.of("HOME", "/home/u", HistoryFile.ENV, "/ci/h.sqlite");
        assertEquals(Optional.of(Path.of("/ci/h.sqlite")), HistoryFile.resolve(null, env));
        assertEquals(Optional.of(Path.of("mine.sqlite")), HistoryFile.resolve("mine.sqlite", env));
        assertTrue(HistoryFile.resolve("off", env).isEmpty());
        assertTrue(HistoryFile.resolve(null, Map.of(HistoryFile.ENV, "OFF")).isEmpty());
    }

    @Test
    void refusesABlankHistoryAndABadLabel() {
        assertThrows(IllegalArgumentException.class, () -> HistoryFile.resolve(" ", HOME));
        assertThrows(IllegalArgumentException.class, () -> HistoryFile.recording(null, "two\nlines", HOME));
        assertThrows(IllegalArgumentException.class, () -> HistoryFile.recording(null, " ", HOME));
        assertThrows(IllegalArgumentException.class, () -> HistoryFile.recording(null, "x".repeat(201), HOME));
        assertEquals("abc123", HistoryFile.recording(null, " abc123 ", HOME).label());
        assertNull(HistoryFile.recording("off", null, HOME).history());
    }
}

package perflab.core.sut;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServerSettingsTest {
    private static ServerSettings parse(String... args) {
        return ServerSettings.from(SutArgs.parse(args, ServerSettings.NAMES));
    }

    @Test
    void defaults() {
        assertEquals(new ServerSettings("127.0.0.1", 8080, 200, ServerSettings.DEFAULT_MAX_REQUEST_BYTES, 0, false,
                "access.log", false, ServerSettings.Http.HTTP1), parse());
    }

    @Test
    void everySettingIsRead() {
        ServerSettings s = parse("--host", "::1", "--port", "0", "--server-threads", "16", "--max-request-bytes", "4096",
                "--max-requests-per-connection", "3", "--access-log", "on", "--access-log-file", "/tmp/a.log",
                "--server-metrics", "yes", "--http", "H2C");
        assertEquals(new ServerSettings("::1", 0, 16, 4096, 3, true, "/tmp/a.log", true, ServerSettings.Http.H2C), s);
        assertEquals(ServerSettings.Http.HTTP1, parse("--http", "HTTP/1.1").http());
    }

    @Test
    void badValuesAreOneLineErrorsNamingTheSetting() {
        assertEquals("--http must be http1 or h2c, got 'h3'",
                assertThrows(IllegalArgumentException.class, () -> parse("--http", "h3")).getMessage());
        assertEquals("--port must be 0..65535, got 70000",
                assertThrows(IllegalArgumentException.class, () -> parse("--port", "70000")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--server-threads", "2"))
                .getMessage().startsWith("--server-threads must be at least 4"));
        assertEquals("--max-request-bytes must be at least 1024, got 10",
                assertThrows(IllegalArgumentException.class, () -> parse("--max-request-bytes", "10")).getMessage());
        assertEquals("--max-requests-per-connection must be 0 (unlimited) or more, got -1",
                assertThrows(IllegalArgumentException.class, () -> parse("--max-requests-per-connection", "-1")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> SutArgs.parse(new String[] {"--threads", "8"}, ServerSettings.NAMES));
    }

    @Test
    void namesAreTheSettingsRead() {
        assertEquals(Set.of("server-threads", "max-request-bytes", "max-requests-per-connection", "access-log",
                "access-log-file", "server-metrics", "http"), ServerSettings.NAMES);
    }

    @Test
    void connectionLimit() {
        ServerSettings unlimited = parse();
        assertFalse(unlimited.lastRequestOnConnection(1_000_000));
        ServerSettings two = parse("--max-requests-per-connection", "2");
        assertFalse(two.lastRequestOnConnection(1));
        assertTrue(two.lastRequestOnConnection(2));
    }
}

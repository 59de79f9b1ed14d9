package perflab.voicemail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UsersFileTest {
    @Test
    void theFileIsSippsInjectionFormatAndHoldsWhatTheDriverComputes(@TempDir Path dir) throws Exception {
        UsersFile users = new UsersFile(1000, 0.5, 60_000, 7);
        Path file = dir.resolve(UsersFile.NAME);
        users.write(file);
        List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        assertEquals(1001, lines.size());
        assertEquals("SEQUENTIAL", lines.get(0));
        for (int i = 0; i < 1000; i++) {
            assertEquals(users.user(i).line(), lines.get(i + 1));
            assertTrue(lines.get(i + 1).matches("u\\d{7};(phone|web);60000"), lines.get(i + 1));
        }
        assertTrue(Files.list(dir).allMatch(p -> p.equals(file)), "no temporary file left behind");
    }

    @Test
    void usersWrapAroundAndHalfHangUpFromThePage() {
        UsersFile users = new UsersFile(10_000, 0.5, 1000, 42);
        assertEquals(users.user(3), users.user(10_003));
        assertEquals("u0000003", users.user(3).id());
        long web = java.util.stream.IntStream.range(0, 10_000).filter(i -> users.user(i).webHangup()).count();
        assertTrue(web > 4_700 && web < 5_300, "web hang-ups: " + web);
        assertEquals(0, java.util.stream.IntStream.range(0, 1000).filter(i -> new UsersFile(1000, 0, 1, 1).user(i).webHangup()).count());
        assertEquals(1000, java.util.stream.IntStream.range(0, 1000).filter(i -> new UsersFile(1000, 1, 1, 1).user(i).webHangup()).count());
    }

    @Test
    void theSeedDecidesWhoHangsUpFromThePage() {
        UsersFile a = new UsersFile(100, 0.5, 1000, 1);
        UsersFile b = new UsersFile(100, 0.5, 1000, 2);
        long differ = java.util.stream.IntStream.range(0, 100).filter(i -> a.user(i).webHangup() != b.user(i).webHangup()).count();
        assertNotEquals(0, differ);
        assertEquals(a.user(5), new UsersFile(100, 0.5, 1000, 1).user(5));
    }

    @Test
    void aBadPopulationIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new UsersFile(0, 0.5, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new UsersFile(10, 1.5, 1, 1));
    }
}

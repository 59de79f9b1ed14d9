package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PasswordsTest {
    @Test
    void onlyTheRightPasswordMatches() {
        String stored = Passwords.hash("xxx");
        assertTrue(Passwords.matches("xxx", stored));
        assertFalse(Passwords.matches("xxy", stored));
        assertFalse(Passwords.matches("", stored));
    }

    @Test
    void aClearTextOrDamagedColumnMatchesNothing() {
        assertFalse(Passwords.matches("xxx", "xxx"), "DayTrader's clear text");
        assertFalse(Passwords.matches("xxx", null));
        assertFalse(Passwords.matches("xxx", "pbkdf2-sha256:0:AA==:AA=="));
        assertFalse(Passwords.matches("xxx", "pbkdf2-sha256:1000:not base64!:AA=="));
        assertFalse(Passwords.matches("xxx", "pbkdf2-sha256:many:AA==:AA=="));
    }
}

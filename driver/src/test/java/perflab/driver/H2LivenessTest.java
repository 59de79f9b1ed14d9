package perflab.driver;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link H2Liveness}: when a silent h2c connection is PINGed, and when it is stuck. */
class H2LivenessTest {
    private static final long TIMEOUT = 300_000_000;
    /** System.nanoTime may be anywhere, negative or about to wrap: times are compared as differences. */
    private static final long T0 = Long.MAX_VALUE - TIMEOUT / 2;

    @Test
    void aConnectionThatReadWithinTheTimeoutIsNotPinged() {
        H2Liveness l = new H2Liveness(TIMEOUT);
        l.connected(T0);
        assertFalse(l.pingDue(T0 + TIMEOUT - 1));
        l.read(T0 + TIMEOUT - 1);
        assertFalse(l.pingDue(T0 + 2 * TIMEOUT - 2));
        assertFalse(l.stuck(T0 + 10 * TIMEOUT), "no PING, nothing to be stuck on");
    }

    @Test
    void aSilentConnectionIsPingedOnceAndStuckWhenNothingAnswers() {
        H2Liveness l = new H2Liveness(TIMEOUT);
        l.connected(T0);
        long ping = T0 + TIMEOUT;
        assertTrue(l.pingDue(ping), "silent for a whole timeout");
        assertFalse(l.pingDue(ping + TIMEOUT), "one PING at a time");
        assertFalse(l.stuck(ping + TIMEOUT - 1));
        assertTrue(l.stuck(ping + TIMEOUT));
    }

    @Test
    void anythingReadAfterThePingIsAnAnswer() {
        H2Liveness l = new H2Liveness(TIMEOUT);
        l.connected(T0);
        long ping = T0 + TIMEOUT;
        assertTrue(l.pingDue(ping));
        l.read(ping); // read at the very moment counts too
        assertFalse(l.stuck(ping + 5 * TIMEOUT));
        assertFalse(l.pingDue(ping + TIMEOUT - 1), "alive until another whole timeout of silence");
        assertTrue(l.pingDue(ping + TIMEOUT), "then asked again");
    }

    @Test
    void aNewChannelForgetsTheOldOnesPing() {
        H2Liveness l = new H2Liveness(TIMEOUT);
        l.connected(T0);
        assertTrue(l.pingDue(T0 + TIMEOUT));
        l.connected(T0 + TIMEOUT + 1);
        assertFalse(l.stuck(T0 + 2 * TIMEOUT + 1));
        assertTrue(l.pingDue(T0 + 2 * TIMEOUT + 1));
    }
}

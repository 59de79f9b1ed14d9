package perflab.voicemail.sip;

import java.time.Duration;

/**
 * RFC 3261's timer values (section 17, table 4) from T1, T2 and T4, for UDP. Tests shorten T1 so that a timeout
 * takes a second rather than 32. {@code provisionalTimeout} is RFC 3261's Timer C (section 16.6, at least 3
 * minutes): how long an INVITE client transaction waits for a final answer after a provisional one, since Timer B
 * stops at the first 1xx and a phone that only rings would hold the call forever.
 */
public record TransactionTimers(long t1Millis, long t2Millis, long t4Millis, long provisionalTimeoutMillis) {
    public static final TransactionTimers RFC3261 = new TransactionTimers(500, 4_000, 5_000, 180_000);

    public TransactionTimers {
        if (t1Millis <= 0 || t2Millis < t1Millis || t4Millis <= 0 || provisionalTimeoutMillis <= 0) {
            throw new IllegalArgumentException("timers need 0 < T1 <= T2, T4 > 0, Timer C > 0: " + t1Millis + ", "
                    + t2Millis + ", " + t4Millis + ", " + provisionalTimeoutMillis);
        }
    }

    /** T1 = {@code t1}, T2 = 8 x T1, T4 = 10 x T1 (RFC ratios), Timer C = 360 x T1: a scaled-down clock for tests. */
    public static TransactionTimers scaled(Duration t1) {
        long ms = t1.toMillis();
        return new TransactionTimers(ms, 8 * ms, 10 * ms, 360 * ms);
    }

    /** Timers A, E and G start at T1 and double. */
    public long firstRetransmitMillis() {
        return t1Millis;
    }

    /** The next interval of Timer A (doubling without cap, INVITE) or E/G (doubling up to T2). */
    public long nextRetransmitMillis(long previous, boolean capAtT2) {
        long doubled = previous * 2;
        return capAtT2 ? Math.min(doubled, t2Millis) : doubled;
    }

    /** Timers B, F, H, J, L and M: 64 x T1, how long a transaction waits for its end. */
    public long transactionTimeoutMillis() {
        return 64 * t1Millis;
    }

    /** Timer D: "at least 32 s" over UDP, which is 64 x T1 at the RFC's T1 and scales with it in tests. */
    public long timerDMillis() {
        return 64 * t1Millis;
    }

    /** Timers I and K: T4 over UDP. */
    public long timerKMillis() {
        return t4Millis;
    }
}

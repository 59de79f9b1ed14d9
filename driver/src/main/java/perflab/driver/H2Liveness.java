package perflab.driver;

/**
 * Whether one h2c channel is alive, judged from everything it reads rather than from any one stream: a stream
 * may time out on a busy server while the others are answered, which is no reason to drop the connection. When a
 * stream times out and nothing at all has been read for a whole timeout, the connection is asked with a PING; if
 * nothing, not even the PING's answer, arrives within another timeout, it is stuck. Times only: the connection
 * writes the PING and closes a stuck channel. Used on the connection's event loop only.
 */
final class H2Liveness {
    private final long timeoutNanos;
    private long lastReadNanos;
    private boolean pingOutstanding;
    private long pingSentNanos;

    H2Liveness(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /** A new channel: alive as of now, no PING outstanding. */
    void connected(long now) {
        lastReadNanos = now;
        pingOutstanding = false;
    }

    /** The channel read something (a frame of any stream, or of the connection). */
    void read(long now) {
        lastReadNanos = now;
    }

    /** Whether the PING has gone unanswered, with nothing else read either, for a whole timeout. */
    boolean stuck(long now) {
        if (pingOutstanding) {
            if (lastReadNanos - pingSentNanos >= 0) {
                pingOutstanding = false; // the connection answered
            } else {
                return now - pingSentNanos >= timeoutNanos;
            }
        }
        return false;
    }

    /**
     * After a stream timed out: whether to send a PING, the channel having been silent for a whole timeout with
     * none outstanding. If so, the PING counts as sent now.
     */
    boolean pingDue(long now) {
        if (pingOutstanding || now - lastReadNanos < timeoutNanos) {
            return false;
        }
        pingOutstanding = true;
        pingSentNanos = now;
        return true;
    }
}

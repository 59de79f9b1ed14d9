package perflab.driver;

/**
 * One connection's life on its event loop, whatever the protocol: {@link ClientConnection} (HTTP/1.1, one
 * client) or {@link H2Connection} (h2c, up to S clients on streams). Called on the loop's thread only.
 */
interface DriverConnection {
    /** Opens the connection (at the start, and again after a close). */
    void connect();

    /** The loop's periodic scan: fails requests outstanding for longer than the timeout. */
    void checkTimeouts(long nowNanos);

    /** Closes the connection for good (end of run). */
    void shutdown();
}

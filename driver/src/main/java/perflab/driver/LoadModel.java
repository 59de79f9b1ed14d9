package perflab.driver;

/**
 * When the clients of one event loop send: {@link ClosedModel} (each client sends when its previous response
 * arrived) or {@link OpenModel} (a schedule of intended send times). Called on the loop's thread only.
 */
interface LoadModel {
    /** The client is connected and has no request outstanding. */
    void clientReady(Client client, long nowNanos);

    /** The client could not open its connection: fail the request it would have sent, if any. */
    void connectFailed(Client client, long nowNanos, String message);

    /** Periodic work on the loop; returns how long it may sleep before the next call, in nanoseconds. */
    long tick(long nowNanos);

    boolean open();

    /** Whether a request due but not sent yet was meant for before the window's end (open model only). */
    default boolean waitingBeforeEnd() {
        return false;
    }

    /** The drain is over: every request due but not sent yet fails as a timeout now (open model only). */
    default void failWaiting(long nowNanos) {
    }
}

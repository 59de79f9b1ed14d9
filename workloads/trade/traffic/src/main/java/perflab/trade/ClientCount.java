package perflab.trade;

/**
 * How many clients share the population, which the users' allocation ({@link UserDeck}) needs and perflab's
 * traffic API does not say: a session learns its own index ({@code ClientContext.clientIndex}) but not how many
 * clients the run has. The driver creates every session of a run before any of them sends, so the count is taken
 * from the sessions created when the first user is dealt, and fixed from then on; a session created later with a
 * higher index would share users with another, and is refused.
 *
 * <p>This holds for one driver process (perflab's only kind of run today). Once the platform passes the run's
 * client count to each session, this class goes and the count comes from there.
 */
final class ClientCount {
    private int highestIndex = -1;
    private int fixed;

    /** Counts a new session's client; refuses one the deal cannot include any more. */
    synchronized void add(int clientIndex) {
        if (fixed > 0 && clientIndex >= fixed) {
            throw new IllegalStateException("client " + clientIndex + " started after the users were dealt to "
                    + fixed + " clients; trade needs every client of a run created before the first request");
        }
        highestIndex = Math.max(highestIndex, clientIndex);
    }

    /** The number of clients, fixed at the first call. */
    synchronized int fix() {
        if (fixed == 0) {
            fixed = highestIndex + 1;
        }
        return fixed;
    }
}

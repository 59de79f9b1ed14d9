package perflab.trade;

/**
 * How many clients share the population, which the users' allocation ({@link UserDeck}) needs and perflab's
 * traffic API does not say: a session learns its own index ({@code ClientContext.clientIndex}) but not how many
 * clients the run has. The driver creates every session of a run before any of them sends, so the count is taken
 * from the sessions created when the first user is dealt, and fixed from then on; a session created later with a
 * higher index would share users with another, and is refused.
 *
 * <p>A run split over agents (driver processes) passes the run's count in each session's context: one agent's
 * highest index says nothing about the others' clients, and the count given is taken as it is.
 */
final class ClientCount {
    private int highestIndex = -1;
    private int fixed;

    /**
     * Counts a new session's client; refuses one the deal cannot include any more. {@code runClients}: the run's
     * clients when the driver knows them (0 otherwise), which fixes the count at once.
     */
    synchronized void add(int clientIndex, int runClients) {
        if (runClients > 0 && fixed == 0) {
            fixed = runClients;
        }
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

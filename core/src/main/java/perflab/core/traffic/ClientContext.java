package perflab.core.traffic;

/**
 * What a session knows about its place in the run.
 *
 * @param clientIndex 0-based index of this client across all driver processes
 * @param seed        a seed derived from the run's seed and the client index (repeatable runs)
 * @param clientCount the run's clients over all driver processes (a session that deals shared data, trade's users,
 *                    needs it: one process sees only its own clients); 0 when not known
 */
public record ClientContext(int clientIndex, long seed, int clientCount) {
    /** A client of a run whose size the session need not know. */
    public ClientContext(int clientIndex, long seed) {
        this(clientIndex, seed, 0);
    }
}

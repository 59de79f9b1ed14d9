package perflab.core.traffic;

/**
 * What a session knows about its place in the run.
 *
 * @param clientIndex 0-based index of this client across all driver processes
 * @param seed        a seed derived from the run's seed and the client index (repeatable runs)
 */
public record ClientContext(int clientIndex, long seed) {
}

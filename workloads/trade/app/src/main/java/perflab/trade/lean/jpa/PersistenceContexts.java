package perflab.trade.lean.jpa;

/**
 * Where the brokerage's entity work runs: one persistence context and one transaction per call, committed when the
 * work returns and rolled back when it throws. The lean stack opens them itself (Hibernate, resource-local
 * transactions); a Jakarta EE container runs them in a stateless session bean (container-managed transactions,
 * the EJB mode's heir). One call is one attempt: {@link EntityTransactions} decides whether a failure is retried.
 */
public interface PersistenceContexts extends AutoCloseable {
    /**
     * Runs {@code work} in a new persistence context and transaction and commits it. A failure of the database or
     * of the provider is thrown as a {@link jakarta.persistence.PersistenceException} with the database's own
     * exception among its causes; anything else the work throws is thrown as it is.
     *
     * @param readOnly the work changes nothing: a provider may skip the snapshots and the flush
     */
    <T> T attempt(boolean readOnly, EntityWork<T> work);

    /** Releases what the contexts hold (a persistence unit the caller opened); the data source stays the caller's. */
    @Override
    default void close() {
    }
}

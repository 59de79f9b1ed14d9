package perflab.trade.lean.jpa;

import jakarta.persistence.PersistenceException;
import perflab.trade.lean.DatabaseFailure;
import perflab.trade.lean.data.Transactions;

import java.sql.SQLException;

/**
 * Runs a unit of work in a persistence context of its own and one transaction ({@link PersistenceContexts}), so no
 * entity outlives its request. A deadlock or lock timeout is retried as the JDBC mode retries it, and any other
 * database error becomes the same {@link DatabaseFailure}, whichever provider or container runs the work.
 */
public final class EntityTransactions {
    private final PersistenceContexts contexts;

    public EntityTransactions(PersistenceContexts contexts) {
        this.contexts = contexts;
    }

    /** Work that changes entities: flushed at commit. */
    <T> T write(String what, EntityWork<T> work) {
        return run(what, false, work);
    }

    /** Work that only reads (a page's reads): nothing to flush. */
    <T> T read(String what, EntityWork<T> work) {
        return run(what, true, work);
    }

    private <T> T run(String what, boolean readOnly, EntityWork<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return contexts.attempt(readOnly, work);
            } catch (PersistenceException e) {
                SQLException cause = sqlCause(e);
                if (attempt < Transactions.ATTEMPTS && cause != null && Transactions.retryable(cause)) {
                    continue;
                }
                throw new DatabaseFailure(what + " failed: " + (cause != null ? cause : e).getMessage(), e);
            }
        }
    }

    /** Whether {@code e} is a unique key's violation (a batched statement's included). */
    public static boolean duplicateKey(PersistenceException e) {
        SQLException cause = sqlCause(e);
        if (cause == null) {
            return false;
        }
        for (Throwable t : cause) {
            if (t instanceof SQLException s && Transactions.duplicateKey(s)) {
                return true;
            }
        }
        return false;
    }

    /** The database's own exception under the provider's (and the container's), if any. */
    public static SQLException sqlCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                return s;
            }
        }
        return null;
    }
}

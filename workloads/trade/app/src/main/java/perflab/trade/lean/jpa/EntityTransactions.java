package perflab.trade.lean.jpa;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.PersistenceException;
import org.hibernate.FlushMode;
import org.hibernate.Session;
import perflab.trade.lean.DatabaseFailure;
import perflab.trade.lean.data.Transactions;

import java.sql.SQLException;

/**
 * Runs a unit of work in a persistence context of its own and one transaction: commit on success, roll back on
 * anything else; the context ends with it, so no entity outlives its request. A deadlock or lock timeout is retried
 * as the JDBC mode retries it, and any other database error becomes the same {@link DatabaseFailure}.
 */
final class EntityTransactions {
    /** Work with an entity manager inside a transaction. */
    interface Work<T> {
        T run(EntityManager em);
    }

    private final EntityManagerFactory factory;

    EntityTransactions(EntityManagerFactory factory) {
        this.factory = factory;
    }

    /** Work that changes entities: flushed at commit. */
    <T> T write(String what, Work<T> work) {
        return run(what, false, work);
    }

    /**
     * Work that only reads: its entities are loaded read-only, so Hibernate keeps no snapshot of them to compare at
     * flush, and nothing is flushed (a page's reads need neither).
     */
    <T> T read(String what, Work<T> work) {
        return run(what, true, work);
    }

    private <T> T run(String what, boolean readOnly, Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            EntityManager em = factory.createEntityManager();
            try {
                if (readOnly) {
                    Session session = em.unwrap(Session.class);
                    session.setDefaultReadOnly(true);
                    session.setHibernateFlushMode(FlushMode.MANUAL);
                }
                EntityTransaction transaction = em.getTransaction();
                transaction.begin();
                try {
                    T result = work.run(em);
                    transaction.commit();
                    return result;
                } catch (RuntimeException | Error e) {
                    rollback(transaction, e);
                    throw e;
                }
            } catch (PersistenceException e) {
                SQLException cause = sqlCause(e);
                if (attempt < Transactions.ATTEMPTS && cause != null && Transactions.retryable(cause)) {
                    continue;
                }
                throw new DatabaseFailure(what + " failed: " + (cause != null ? cause : e).getMessage(), e);
            } finally {
                em.close();
            }
        }
    }

    /** Whether {@code e} is a unique key's violation (a batched statement's included). */
    static boolean duplicateKey(PersistenceException e) {
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

    /** The database's own exception under Hibernate's, if any. */
    private static SQLException sqlCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                return s;
            }
        }
        return null;
    }

    private static void rollback(EntityTransaction transaction, Throwable cause) {
        try {
            if (transaction.isActive()) {
                transaction.rollback();
            }
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}

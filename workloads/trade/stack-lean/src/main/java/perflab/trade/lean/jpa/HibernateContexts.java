package perflab.trade.lean.jpa;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.PersistenceException;
import org.hibernate.FlushMode;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import perflab.trade.lean.DatabaseFailure;

import javax.sql.DataSource;

/**
 * The lean stack's persistence contexts: Hibernate's session factory on the stack's own pool, an entity manager and a
 * resource-local transaction per attempt (commit on success, roll back on anything else), the context closed with
 * it.
 */
public final class HibernateContexts implements PersistenceContexts {
    private final SessionFactory factory;

    HibernateContexts(SessionFactory factory) {
        this.factory = factory;
    }

    /** Starts the persistence unit on {@code dataSource}, whose schema must exist; a mismatch is a DatabaseFailure. */
    public static HibernateContexts open(DataSource dataSource) {
        try {
            return new HibernateContexts(TradePersistenceUnit.open(dataSource));
        } catch (PersistenceException e) {
            // the innermost message names what does not fit ("missing column [change1] in table [quote]")
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            throw new DatabaseFailure("starting JPA on the trade schema failed: " + cause.getMessage(), e);
        }
    }

    /**
     * Read-only work loads its entities read-only, so Hibernate keeps no snapshot of them to compare at flush, and
     * nothing is flushed (a page's reads need neither).
     */
    @Override
    public <T> T attempt(boolean readOnly, EntityWork<T> work) {
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
        } finally {
            em.close();
        }
    }

    @Override
    public void close() {
        if (factory.isOpen()) {
            factory.close();
        }
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

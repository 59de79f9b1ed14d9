package perflab.trade.liberty.ejb;

import jakarta.ejb.EJBException;
import jakarta.persistence.PersistenceException;
import perflab.trade.lean.jpa.EntityWork;
import perflab.trade.lean.jpa.PersistenceContexts;

/**
 * The brokerage's persistence contexts on a Jakarta EE container: each attempt is one call of {@link EntityWorkBean},
 * so the container owns the transaction and the persistence context. A database's failure comes back as the
 * PersistenceException the shared code expects, the database's exception still among its causes, so a deadlock is
 * retried and an outage is a DatabaseFailure (a 503) as on the lean stack. A refusal and a defect in the work pass
 * as they are.
 */
public final class SessionBeanContexts implements PersistenceContexts {
    private final EntityWorkBean bean;

    public SessionBeanContexts(EntityWorkBean bean) {
        this.bean = bean;
    }

    @Override
    public <T> T attempt(boolean readOnly, EntityWork<T> work) {
        try {
            return bean.run(readOnly, work);
        } catch (EntityWorkFailure e) {
            throw new PersistenceException(e.getMessage(), e.getCause());
        } catch (EJBException e) {
            // the container's own failure, such as a commit it could not complete after the flush
            throw new PersistenceException(e.getMessage(), e);
        }
    }
}

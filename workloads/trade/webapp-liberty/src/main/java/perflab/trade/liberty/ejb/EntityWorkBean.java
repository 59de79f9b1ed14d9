package perflab.trade.liberty.ejb;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import perflab.trade.lean.jpa.EntityTransactions;
import perflab.trade.lean.jpa.EntityWork;

/**
 * The EJB mode's heir: a stateless session bean whose every call is one container-managed transaction (begun before
 * the call, committed after it, rolled back on an exception) with the container's persistence context of unit {@code
 * trade} (EclipseLink on the data source {@code jdbc/trade}, META-INF/persistence.xml).
 *
 * <p>What a call does is the brokerage's shared JPA code ({@code JpaTradeService}, {@code EntityTrading}): one
 * operation, one bean call, as Trade's session bean had one method per operation. Its failures leave the bean as
 * application exceptions (WEB-INF/ejb-jar.xml), rolled back and handed on as they are: a refusal ({@code
 * TradeRefusal}) for its page, a database's failure as {@link EntityWorkFailure} for the caller's retry. A system
 * exception would be logged by the container on every lock timeout and would discard the bean instance.
 */
@Stateless
@LocalBean
public class EntityWorkBean {
    @PersistenceContext(unitName = "trade")
    private EntityManager em;

    /**
     * Runs {@code work} in a transaction the container begins for this call (callers, the front servlet and the
     * completion executor, hold none) and commits when it returns. Changes are flushed before the call returns, so
     * that a write that fails fails here, with the database's exception among its causes, and not in the
     * container's commit.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public <T> T run(boolean readOnly, EntityWork<T> work) {
        try {
            T result = work.run(em);
            if (!readOnly) {
                em.flush();
            }
            return result;
        } catch (RuntimeException e) {
            // EclipseLink throws some database errors unwrapped (an unlocked find): the SQLException tells them apart
            if (e instanceof PersistenceException || EntityTransactions.sqlCause(e) != null) {
                throw new EntityWorkFailure(e);
            }
            throw e;
        }
    }
}

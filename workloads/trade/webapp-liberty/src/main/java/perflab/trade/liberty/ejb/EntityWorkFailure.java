package perflab.trade.liberty.ejb;

/**
 * The database or the persistence provider failed inside {@link EntityWorkBean}'s transaction: an application
 * exception with rollback (WEB-INF/ejb-jar.xml), so the container rolls back and hands it on unwrapped and unlogged;
 * its cause is the provider's exception, the database's among its causes.
 */
public class EntityWorkFailure extends RuntimeException {
    EntityWorkFailure(RuntimeException cause) {
        super(cause.getMessage(), cause);
    }
}

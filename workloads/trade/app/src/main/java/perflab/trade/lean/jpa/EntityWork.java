package perflab.trade.lean.jpa;

import jakarta.persistence.EntityManager;

/** Work with an entity manager inside a transaction: a service operation's reads and changes. */
@FunctionalInterface
public interface EntityWork<T> {
    T run(EntityManager em);
}

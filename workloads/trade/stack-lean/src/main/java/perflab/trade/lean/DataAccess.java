package perflab.trade.lean;

import perflab.trade.lean.data.ContainerResources;
import perflab.trade.lean.data.JdbcTradeService;
import perflab.trade.lean.data.Schema;
import perflab.trade.lean.jpa.HibernateContexts;
import perflab.trade.lean.jpa.JpaTradeService;

import javax.sql.DataSource;
import java.util.Locale;

/**
 * How the brokerage reaches its database: the Trade studies' JDBC mode against the EJB mode, whose heir is JPA. Both
 * run the same rules on the same tables, so that a difference in CPU per request is the data access's.
 */
public enum DataAccess {
    /** Prepared statements written by hand ({@link JdbcTradeService}). */
    JDBC,
    /** Entities in a persistence context, Hibernate ORM ({@link JpaTradeService}). */
    JPA;

    /** The mode named {@code jdbc} or {@code jpa}; anything else is refused with the accepted names. */
    public static DataAccess parse(String name) {
        for (DataAccess mode : values()) {
            if (mode.name().equalsIgnoreCase(name == null ? "" : name.trim())) {
                return mode;
            }
        }
        throw new IllegalArgumentException("data access '" + name + "' is unknown; use jdbc or jpa");
    }

    /** The service of this mode over {@code dataSource}, which stays the caller's to close. */
    public TradeService open(DataSource dataSource, TradeSettings settings) {
        return switch (this) {
            case JDBC -> new JdbcTradeService(dataSource, settings);
            case JPA -> {
                // the schema before Hibernate, which checks the entities against it
                Schema.create(dataSource);
                HibernateContexts contexts = HibernateContexts.open(dataSource);
                try {
                    yield new JpaTradeService(dataSource, contexts, settings, ContainerResources.NONE);
                } catch (RuntimeException e) {
                    contexts.close();
                    throw e;
                }
            }
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}

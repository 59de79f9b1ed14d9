package perflab.trade.lean.jpa;

import jakarta.persistence.PersistenceUnitTransactionType;
import jakarta.persistence.SharedCacheMode;
import jakarta.persistence.ValidationMode;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.BatchSettings;
import org.hibernate.cfg.CacheSettings;
import org.hibernate.cfg.JdbcSettings;
import org.hibernate.cfg.PersistenceSettings;
import org.hibernate.cfg.QuerySettings;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.hibernate.tool.schema.Action;

import javax.sql.DataSource;

/**
 * The brokerage's persistence unit, built in code (JPA 3.2's PersistenceConfiguration): the five entities named
 * here, no persistence.xml, no class-path scanning, no XML mapping. Hibernate borrows its connections from the
 * caller's pool, so the pool size and the statement cache are the same knobs as in the JDBC mode; and it checks
 * the entities against the tables at start without ever changing them (schema.sql, run by {@code Schema}, is the one
 * definition of the schema in both modes).
 *
 * <p>Hibernate logs through JBoss Logging, which this jar points at SLF4J (META-INF/services), where slf4j-nop keeps
 * it quiet: the SUT's stdout carries the runner's protocol, and a benchmark wants no logging on its hot path.
 */
final class TradePersistenceUnit {
    private TradePersistenceUnit() {
    }

    /**
     * One round trip for the largest write of a request, a user's closed orders marked completed; the other
     * transactions write a row or two per table.
     */
    static final int BATCH_SIZE = 20;

    static SessionFactory open(DataSource dataSource) {
        return new HibernatePersistenceConfiguration("trade")
                .managedClasses(ProfileEntity.class, AccountEntity.class, HoldingEntity.class, OrderEntity.class,
                        QuoteEntity.class, UtcTimestamps.class)
                .transactionType(PersistenceUnitTransactionType.RESOURCE_LOCAL)
                .property(JdbcSettings.JAKARTA_NON_JTA_DATASOURCE, dataSource)
                // the pool's connections come with autocommit off (TradeDatabase): no check and switch per transaction
                .property(JdbcSettings.CONNECTION_PROVIDER_DISABLES_AUTOCOMMIT, true)
                // validate, never create or update: a mapping that does not fit schema.sql fails at start (this is
                // hibernate.hbm2ddl.auto; the jakarta.persistence database action would take precedence: left unset)
                .schemaToolingAction(Action.VALIDATE)
                // nothing else to look for or run: no orm.xml, no Bean Validation, no entity callbacks; and no id
                // generator (ids come from KeyBlocks), so no sequence or table of Hibernate's
                .xmlMappings(false)
                .validationMode(ValidationMode.NONE)
                .property(PersistenceSettings.JPA_CALLBACKS_ENABLED, false)
                // what a benchmark does not want by default: statistics, SQL logging, a second-level cache (the JDBC
                // mode has none; caching is a study of its own)
                .collectStatistics(false)
                .showSql(false, false, false)
                .sharedCacheMode(SharedCacheMode.NONE)
                .property(CacheSettings.USE_SECOND_LEVEL_CACHE, false)
                .property(CacheSettings.USE_QUERY_CACHE, false)
                // each JPQL string is translated once, not per call
                .property(QuerySettings.QUERY_PLAN_CACHE_ENABLED, true)
                // writes of one table go out as one JDBC batch, in key order (so that two transactions updating the
                // same rows lock them in the same order)
                .property(BatchSettings.STATEMENT_BATCH_SIZE, BATCH_SIZE)
                .property(BatchSettings.ORDER_INSERTS, true)
                .property(BatchSettings.ORDER_UPDATES, true)
                // no fetch settings: the entities have no associations, every query loads what its page shows
                .createEntityManagerFactory();
    }
}

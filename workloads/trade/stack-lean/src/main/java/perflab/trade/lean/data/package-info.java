/**
 * The brokerage over plain JDBC, portable between H2 (the embedded default) and PostgreSQL.
 *
 * <p>{@link perflab.trade.lean.data.TradeDatabase} makes the pooled data source and {@link
 * perflab.trade.lean.data.JdbcTradeService} the service over it. The rules of buying, selling and completing live in
 * {@link perflab.trade.lean.data.Trading}, used alike by the service and by {@link
 * perflab.trade.lean.data.Population}; each table's SQL lives in its {@code *Table} class. {@link
 * perflab.trade.lean.data.Audit} checks the books afterwards.
 *
 * <p>Ids come from {@link perflab.trade.lean.data.KeyBlocks}, which refills on a connection of its own; so every
 * operation takes its ids <em>before</em> it borrows its connection, and a small pool can never deadlock on a
 * refill waiting for a connection its caller holds.
 *
 * <p>The JPA mode ({@code perflab.trade.lean.jpa}) shares what is not SQL: the keys, passwords, market summary cache
 * and asynchronous completions, and it runs the population and the audit of this package on the same data source
 * (as DayTrader resets its database over JDBC in every mode). Those classes are public for it; the tables' SQL is
 * not.
 */
package perflab.trade.lean.data;

/**
 * The brokerage's server, perflab's own (stack {@code lean}): the API the web pages call ({@link
 * perflab.trade.lean.TradeService}), what it answers with (records named after DayTrader's beans), what it refuses
 * ({@link perflab.trade.lean.TradeRefusal}, a 4xx) and how it is set up ({@link perflab.trade.lean.TradeSettings}).
 * The JDBC implementation, population and audit live in {@code perflab.trade.lean.data}, the JPA implementation in
 * {@code perflab.trade.lean.jpa}; {@link perflab.trade.lean.DataAccess} picks one.
 */
package perflab.trade.lean;

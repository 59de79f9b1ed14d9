/**
 * The brokerage's web pages on Jetty 12's core handlers (no servlet layer): {@link perflab.trade.lean.web.TradeWeb}
 * routes each request of the contract ({@link perflab.trade.contract.TradePages}) to {@link
 * perflab.trade.lean.web.PageActions}, which calls the {@link perflab.trade.lean.TradeService} and renders a
 * precompiled JTE template ({@code src/main/jte}) through {@link perflab.trade.lean.web.PageWriter}. Sessions are
 * Jetty's ({@code jetty-session}); what the brokerage keeps in one is {@link perflab.trade.lean.web.WebSession}.
 */
package perflab.trade.lean.web;

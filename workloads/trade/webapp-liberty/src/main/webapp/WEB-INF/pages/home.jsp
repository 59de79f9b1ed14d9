<%@ page contentType="text/html;charset=utf-8" pageEncoding="UTF-8" session="false" trimDirectiveWhitespaces="true"
         import="perflab.trade.lean.*, perflab.trade.lean.web.*, perflab.trade.liberty.web.Html, java.util.*" %>
<%-- the lean stack's home.jte --%>
<% Frame frame = (Frame) request.getAttribute("frame");
   Account account = (Account) request.getAttribute("account");
   Portfolio portfolio = (Portfolio) request.getAttribute("portfolio");
   MarketSummary market = (MarketSummary) request.getAttribute("market"); %>
<%@ include file="top.jspf" %>
<h1>Welcome, <%= Html.text(account.userId()) %></h1>
<h2>Your account</h2>
<table id="account-summary">
<tr><th>Account</th><td><%= account.accountId() %></td></tr>
<tr><th>Opened</th><td><%= Formats.time(account.creationDate()) %></td></tr>
<tr><th>Logins</th><td><%= account.loginCount() %></td></tr>
<tr><th>Cash balance</th><td id="balance"><%= Formats.money(account.balance()) %></td></tr>
<tr><th>Holdings</th><td><%= portfolio.count() %></td></tr>
<tr><th>Holdings value</th><td><%= Formats.money(portfolio.marketValue()) %></td></tr>
<tr><th>Total</th><td><%= Formats.money(account.balance().add(portfolio.marketValue())) %></td></tr>
<tr><th>Opening balance</th><td><%= Formats.money(account.openBalance()) %></td></tr>
<tr><th>Gain</th><td class="<%= Formats.direction(portfolio.totalGain(account)) %>"><%= Formats.money(portfolio.totalGain(account)) %></td></tr>
</table>
<h2>Market summary</h2>
<table id="market-summary">
<tr><th>TSIA</th><td class="n <%= Formats.direction(market.gainPercent()) %>"><%= Formats.money(market.tsia()) %> (<%= Formats.percent(market.gainPercent()) %> %)</td></tr>
<tr><th>Open TSIA</th><td class="n"><%= Formats.money(market.openTsia()) %></td></tr>
<tr><th>Volume</th><td class="n"><%= Formats.shares(market.volume()) %></td></tr>
<tr><th>As of</th><td><%= Formats.time(market.summaryDate()) %></td></tr>
</table>
<div style="display:flex;gap:2em;flex-wrap:wrap">
<div><h3>Top gainers</h3>
<table id="top-gainers"><tr><th>Symbol</th><th class="n">Price</th><th class="n">Change</th></tr>
<% for (Quote q : market.topGainers()) { %>
<tr><td><a href="/quotes?symbols=<%= Html.text(q.symbol()) %>"><%= Html.text(q.symbol()) %></a></td><td class="n"><%= Formats.money(q.price()) %></td><td class="n <%= Formats.direction(q.change()) %>"><%= Formats.change(q.change()) %></td></tr>
<% } %>
</table></div>
<div><h3>Top losers</h3>
<table id="top-losers"><tr><th>Symbol</th><th class="n">Price</th><th class="n">Change</th></tr>
<% for (Quote q : market.topLosers()) { %>
<tr><td><a href="/quotes?symbols=<%= Html.text(q.symbol()) %>"><%= Html.text(q.symbol()) %></a></td><td class="n"><%= Formats.money(q.price()) %></td><td class="n <%= Formats.direction(q.change()) %>"><%= Formats.change(q.change()) %></td></tr>
<% } %>
</table></div>
</div>
<%@ include file="bottom.jspf" %>

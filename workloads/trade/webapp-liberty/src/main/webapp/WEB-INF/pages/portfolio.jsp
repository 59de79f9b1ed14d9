<%@ page contentType="text/html;charset=utf-8" pageEncoding="UTF-8" session="false" trimDirectiveWhitespaces="true"
         import="perflab.trade.lean.*, perflab.trade.lean.web.*, perflab.trade.liberty.web.Html, java.util.*" %>
<%-- the lean stack's portfolio.jte --%>
<% Frame frame = (Frame) request.getAttribute("frame");
   Portfolio portfolio = (Portfolio) request.getAttribute("portfolio"); %>
<%@ include file="top.jspf" %>
<h1>Portfolio</h1>
<p><%= portfolio.count() %> holdings, worth <%= Formats.money(portfolio.marketValue()) %>, bought for <%= Formats.money(portfolio.basis()) %>: <span class="<%= Formats.direction(portfolio.gain()) %>"><%= Formats.money(portfolio.gain()) %></span>.</p>
<table id="holdings">
<tr><th>Holding</th><th>Bought</th><th>Symbol</th><th class="n">Quantity</th><th class="n">Purchase price</th><th class="n">Price</th><th class="n">Value</th><th class="n">Gain</th><th></th></tr>
<% for (Holding h : portfolio.holdings()) { %>
<tr class="holding" data-id="<%= h.holdingId() %>" data-symbol="<%= Html.text(h.symbol()) %>"><td><%= h.holdingId() %></td><td><%= h.inFlight() ? "selling" : Formats.time(h.purchaseDate()) %></td><td><a href="/quotes?symbols=<%= Html.text(h.symbol()) %>"><%= Html.text(h.symbol()) %></a></td><td class="n"><%= Formats.shares(h.quantity()) %></td><td class="n"><%= Formats.money(h.purchasePrice()) %></td><td class="n"><%= Formats.money(h.currentPrice()) %></td><td class="n"><%= Formats.money(h.marketValue()) %></td><td class="n <%= Formats.direction(h.gain()) %>"><%= Formats.money(h.gain()) %></td>
<td><% if (!h.inFlight()) { %><form class="inline" method="post" action="/sell"><input type="hidden" name="csrf" value="<%= frame.csrf() %>"><input type="hidden" name="holdingId" value="<%= h.holdingId() %>"><button>Sell</button></form><% } %></td></tr>
<% } %>
</table>
<%@ include file="bottom.jspf" %>

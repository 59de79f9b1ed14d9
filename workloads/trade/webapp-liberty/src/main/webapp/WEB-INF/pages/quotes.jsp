<%@ page contentType="text/html;charset=utf-8" pageEncoding="UTF-8" session="false" trimDirectiveWhitespaces="true"
         import="perflab.trade.lean.*, perflab.trade.lean.web.*, perflab.trade.liberty.web.Html, java.util.*" %>
<%-- the lean stack's quotes.jte --%>
<% Frame frame = (Frame) request.getAttribute("frame");
   @SuppressWarnings("unchecked") List<Quote> quotes = (List<Quote>) request.getAttribute("quotes");
   String symbols = (String) request.getAttribute("symbols"); %>
<%@ include file="top.jspf" %>
<h1>Quotes</h1>
<form method="get" action="/quotes"><label>Symbols <input name="symbols" value="<%= Html.text(symbols) %>"></label><button>Show</button></form>
<table id="quotes">
<tr><th>Symbol</th><th>Company</th><th class="n">Price</th><th class="n">Open</th><th class="n">Low</th><th class="n">High</th><th class="n">Change</th><th class="n">Volume</th><th>Buy</th></tr>
<% for (Quote q : quotes) { %>
<tr class="quote" data-symbol="<%= Html.text(q.symbol()) %>"><td><%= Html.text(q.symbol()) %></td><td><%= Html.text(q.companyName()) %></td><td class="n"><%= Formats.money(q.price()) %></td><td class="n"><%= Formats.money(q.open()) %></td><td class="n"><%= Formats.money(q.low()) %></td><td class="n"><%= Formats.money(q.high()) %></td><td class="n <%= Formats.direction(q.change()) %>"><%= Formats.change(q.change()) %></td><td class="n"><%= Formats.shares(q.volume()) %></td>
<td><form class="inline" method="post" action="/buy"><input type="hidden" name="csrf" value="<%= frame.csrf() %>"><input type="hidden" name="symbol" value="<%= Html.text(q.symbol()) %>"><input name="quantity" value="100" size="5" aria-label="Shares of <%= Html.text(q.symbol()) %> to buy"><button>Buy</button></form></td></tr>
<% } %>
</table>
<%@ include file="bottom.jspf" %>

<%@ page contentType="text/html;charset=utf-8" pageEncoding="UTF-8" session="false" trimDirectiveWhitespaces="true"
         import="perflab.trade.lean.*, perflab.trade.lean.web.*, perflab.trade.liberty.web.Html, java.util.*" %>
<%-- the lean stack's order.jte --%>
<% Frame frame = (Frame) request.getAttribute("frame");
   Order order = (Order) request.getAttribute("order"); %>
<%@ include file="top.jspf" %>
<h1><%= order.isBuy() ? "Buy" : "Sell" %> order</h1>
<table id="order">
<tr><th>Order</th><th>Type</th><th>Symbol</th><th class="n">Quantity</th><th class="n">Price</th><th class="n">Fee</th><th>Status</th><th>Opened</th><th>Completed</th></tr>
<tr><td id="order-id"><%= order.orderId() %></td><td><%= Html.text(order.type()) %></td><td id="order-symbol"><%= Html.text(order.symbol()) %></td><td id="order-quantity"><%= Formats.shares(order.quantity()) %></td><td class="n"><%= Formats.money(order.price()) %></td><td class="n"><%= Formats.money(order.fee()) %></td><td id="order-status"><%= Html.text(order.status()) %></td><td><%= Formats.time(order.openDate()) %></td><td><%= Formats.time(order.completionDate()) %></td></tr>
</table>
<p><a href="/portfolio">Portfolio</a> · <a href="/quotes?symbols=<%= Html.text(order.symbol()) %>">Quote <%= Html.text(order.symbol()) %></a></p>
<%@ include file="bottom.jspf" %>

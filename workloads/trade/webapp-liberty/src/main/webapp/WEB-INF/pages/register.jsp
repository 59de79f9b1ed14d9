<%@ page contentType="text/html;charset=utf-8" pageEncoding="UTF-8" session="false" trimDirectiveWhitespaces="true"
         import="perflab.trade.lean.*, perflab.trade.lean.web.*, perflab.trade.liberty.web.Html, java.util.*" %>
<%-- the lean stack's register.jte --%>
<% Frame frame = (Frame) request.getAttribute("frame");
   String problem = (String) request.getAttribute("problem");
   @SuppressWarnings("unchecked") Map<String, String> form = (Map<String, String>) request.getAttribute("form"); %>
<%@ include file="top.jspf" %>
<h1>Register</h1>
<% if (!problem.isEmpty()) { %>
<p id="problem"><%= Html.text(problem) %></p>
<% } %>
<form id="register" method="post" action="/register">
<label>User id <input name="uid" value="<%= Html.text(form.getOrDefault("uid", "")) %>" required></label>
<label>Password <input name="passwd" type="password" required></label>
<label>Confirm password <input name="confirm" type="password" required></label>
<label>Full name <input name="fullname" value="<%= Html.text(form.getOrDefault("fullname", "")) %>"></label>
<label>Address <input name="address" value="<%= Html.text(form.getOrDefault("address", "")) %>"></label>
<label>E-mail <input name="email" value="<%= Html.text(form.getOrDefault("email", "")) %>"></label>
<label>Credit card <input name="creditcard" value="<%= Html.text(form.getOrDefault("creditcard", "")) %>"></label>
<label>Opening balance <input name="money" value="<%= Html.text(form.getOrDefault("money", "10000")) %>"></label>
<button>Register</button>
</form>
<p><a href="/login">Log in</a> instead.</p>
<%@ include file="bottom.jspf" %>

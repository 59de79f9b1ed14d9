<%@ page contentType="text/html;charset=utf-8" pageEncoding="UTF-8" session="false" trimDirectiveWhitespaces="true"
         import="perflab.trade.lean.*, perflab.trade.lean.web.*, perflab.trade.liberty.web.Html, java.util.*" %>
<%-- the lean stack's login.jte --%>
<% Frame frame = (Frame) request.getAttribute("frame");
   String error = (String) request.getAttribute("error");
   String userId = (String) request.getAttribute("userId"); %>
<%@ include file="top.jspf" %>
<h1>Log in</h1>
<% if (!error.isEmpty()) { %>
<p id="login-error"><%= Html.text(error) %></p>
<% } %>
<form id="login" method="post" action="/login">
<label>User id <input name="uid" value="<%= Html.text(userId) %>" autocomplete="username" required></label>
<label>Password <input name="passwd" type="password" autocomplete="current-password" required></label>
<button>Log in</button>
</form>
<p>New here? <a href="/register">Register</a>. The population's users are uid:0, uid:1, ... with password xxx.</p>
<%@ include file="bottom.jspf" %>

<%@ page contentType="text/html;charset=utf-8" pageEncoding="UTF-8" session="false" trimDirectiveWhitespaces="true"
         import="perflab.trade.lean.*, perflab.trade.lean.web.*, perflab.trade.liberty.web.Html, java.util.*" %>
<%-- the lean stack's account.jte --%>
<% Frame frame = (Frame) request.getAttribute("frame");
   Account account = (Account) request.getAttribute("account");
   Profile profile = (Profile) request.getAttribute("profile");
   String problem = (String) request.getAttribute("problem");
   boolean updated = (Boolean) request.getAttribute("updated"); %>
<%@ include file="top.jspf" %>
<h1>Account</h1>
<table id="account">
<tr><th>Account</th><td><%= account.accountId() %></td></tr>
<tr><th>User id</th><td><%= Html.text(account.userId()) %></td></tr>
<tr><th>Opened</th><td><%= Formats.time(account.creationDate()) %></td></tr>
<tr><th>Last login</th><td><%= Formats.time(account.lastLogin()) %></td></tr>
<tr><th>Logins / logouts</th><td><%= account.loginCount() %> / <%= account.logoutCount() %></td></tr>
<tr><th>Cash balance</th><td id="balance"><%= Formats.money(account.balance()) %></td></tr>
<tr><th>Opening balance</th><td><%= Formats.money(account.openBalance()) %></td></tr>
</table>
<h2>Profile</h2>
<% if (!problem.isEmpty()) { %>
<p id="problem"><%= Html.text(problem) %></p>
<% } else if (updated) { %>
<p id="updated">Profile updated.</p>
<% } %>
<form id="profile" method="post" action="/account">
<input type="hidden" name="csrf" value="<%= frame.csrf() %>">
<label>Full name <input name="fullname" value="<%= Html.text(profile.fullName()) %>"></label>
<label>Address <input name="address" value="<%= Html.text(profile.address()) %>"></label>
<label>E-mail <input name="email" value="<%= Html.text(profile.email()) %>"></label>
<label>Credit card <input name="creditcard" value="<%= Html.text(profile.creditCard()) %>"></label>
<label>Password <input name="passwd" type="password" required></label>
<label>Confirm password <input name="confirm" type="password" required></label>
<button>Update profile</button>
</form>
<%@ include file="bottom.jspf" %>

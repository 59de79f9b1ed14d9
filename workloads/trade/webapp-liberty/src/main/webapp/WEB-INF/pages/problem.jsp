<%@ page contentType="text/html;charset=utf-8" pageEncoding="UTF-8" session="false" trimDirectiveWhitespaces="true"
         import="perflab.trade.lean.*, perflab.trade.lean.web.*, perflab.trade.liberty.web.Html, java.util.*" %>
<%-- the lean stack's problem.jte --%>
<% Frame frame = (Frame) request.getAttribute("frame");
   String problem = (String) request.getAttribute("problem"); %>
<%@ include file="top.jspf" %>
<h1><%= Html.text(frame.title()) %></h1>
<p id="problem"><%= Html.text(problem) %></p>
<p><a href="<%= frame.loggedIn() ? "/home" : "/login" %>">Back</a></p>
<%@ include file="bottom.jspf" %>

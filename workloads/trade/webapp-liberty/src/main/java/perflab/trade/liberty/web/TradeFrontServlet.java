package perflab.trade.liberty.web;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import perflab.trade.lean.site.Answer;
import perflab.trade.lean.site.TradeSite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The brokerage's one servlet (DayTrader's front controller), mapped to every path of the application: the site
 * ({@link TradeSite}, the rules the lean stack follows too) decides the answer, a page is rendered by forwarding to
 * its Jakarta Page ({@code /WEB-INF/pages/<view>.jsp}) with the page's model as request attributes. Every method goes
 * through here, so that a PUT gets the site's 405 page and not the container's.
 */
@WebServlet(urlPatterns = "/", loadOnStartup = 1)
public final class TradeFrontServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    static final String PAGES = "/WEB-INF/pages/";

    private transient TradeSite site;

    @Override
    public void init() throws ServletException {
        site = (TradeSite) getServletContext().getAttribute(TradeApplication.SITE);
        if (site == null) {
            throw new ServletException("the trade application did not start (see the server's log)");
        }
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        Answer answer;
        try {
            answer = site.answer(new ServletSiteRequest(request));
        } catch (RuntimeException e) {
            // a failure nobody foresaw: its trace in the server's log, one line to the client
            log("trade: " + request.getMethod() + " " + request.getRequestURI() + " failed", e);
            answer = new Answer.Text(500, "the server failed: " + e.getClass().getSimpleName());
        }
        response.setHeader("Cache-Control", "no-store");
        if (answer instanceof Answer.Page page) {
            response.setStatus(page.status());
            response.setContentType(Answer.HTML);
            for (Map.Entry<String, Object> e : page.model().entrySet()) {
                request.setAttribute(e.getKey(), e.getValue());
            }
            request.getRequestDispatcher(PAGES + page.view() + ".jsp").forward(request, response);
        } else if (answer instanceof Answer.SeeOther see) {
            // sendRedirect would answer 302: a form's POST is followed by a GET only under 303
            response.setStatus(HttpServletResponse.SC_SEE_OTHER);
            response.setHeader("Location", request.getContextPath() + see.path());
            response.setContentLength(0);
        } else if (answer instanceof Answer.Json json) {
            send(response, 200, Answer.JSON, json.body());
        } else if (answer instanceof Answer.Text text) {
            send(response, text.status(), Answer.TEXT, text.line() + "\n");
        }
    }

    private static void send(HttpServletResponse response, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(type);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}

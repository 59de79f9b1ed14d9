package perflab.trade.lean.web;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.Utf8ByteOutput;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.trade.lean.site.Answer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * How the site's {@link Answer} goes out on Jetty: a page rendered from its precompiled template (HTML-escaped by
 * JTE), a 303 redirect, a JSON body, a line of text. Nothing is cached by a browser or proxy.
 */
final class PageWriter {
    /** Templates compiled at build time into this module (jte-maven-plugin's generate goal): nothing compiles at run time. */
    private final TemplateEngine templates = TemplateEngine.createPrecompiled(ContentType.Html);

    void send(Request request, Response response, Callback callback, Answer answer) {
        if (!(answer instanceof Answer.SeeOther) && !request.consumeAvailable()) {
            // a body the site did not read (a refused form) and that has not all arrived: the connection cannot
            // carry the next request, and says so instead of closing under a client that would reuse it
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        if (answer instanceof Answer.Page page) {
            Utf8ByteOutput out = new Utf8ByteOutput();
            templates.render(page.view() + ".jte", page.model(), out);
            send(response, callback, page.status(), Answer.HTML, out.toByteArray());
        } else if (answer instanceof Answer.SeeOther see) {
            noStore(response);
            Response.sendRedirect(request, response, callback, 303, see.path(), true);
        } else if (answer instanceof Answer.Json json) {
            send(response, callback, 200, Answer.JSON, json.body().getBytes(StandardCharsets.UTF_8));
        } else if (answer instanceof Answer.Text text) {
            send(response, callback, text.status(), Answer.TEXT, (text.line() + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void send(Response response, Callback callback, int status, String type, byte[] body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        noStore(response);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    private static void noStore(Response response) {
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    }
}

package perflab.trade.lean.web;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.Utf8ByteOutput;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * How an answer goes out: a page rendered from its precompiled template (HTML-escaped by JTE), a 303 redirect, a
 * JSON body. Pages are never cached by a browser or proxy: each shows a user's live account.
 */
final class PageWriter {
    static final String HTML = "text/html;charset=utf-8";
    static final String JSON = "application/json";

    /** Templates compiled at build time into this module (jte-maven-plugin's generate goal): nothing compiles at run time. */
    private final TemplateEngine templates = TemplateEngine.createPrecompiled(ContentType.Html);

    /** Renders {@code template} ("home.jte") with its parameters and sends it with {@code status}. */
    void page(Response response, Callback callback, int status, String template, Map<String, Object> params) {
        Utf8ByteOutput out = new Utf8ByteOutput();
        templates.render(template, params, out);
        send(response, callback, status, HTML, out.toByteArray());
    }

    void json(Response response, Callback callback, String body) {
        send(response, callback, 200, JSON, body.getBytes(StandardCharsets.UTF_8));
    }

    /** 303 See Other to a path of this application: after a POST, the browser GETs the page it names. */
    void seeOther(Request request, Response response, Callback callback, String path) {
        noStore(response);
        Response.sendRedirect(request, response, callback, 303, path, true);
    }

    /** A one-line answer outside any page (an oversized form, an unexpected failure). */
    void plain(Response response, Callback callback, int status, String message) {
        send(response, callback, status, "text/plain;charset=utf-8", (message + "\n").getBytes(StandardCharsets.UTF_8));
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

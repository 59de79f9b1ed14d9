package perflab.trade.lean.site;

import java.util.Map;

/**
 * What the site answers a request with, for the stack to send: a page rendered from a view (JTE in the lean stack,
 * Jakarta Pages in the liberty stack), a 303 redirect, a JSON body or one line of text. Pages are never cached by a
 * browser or proxy: each shows a user's live account.
 */
public sealed interface Answer {
    String HTML = "text/html;charset=utf-8";
    String JSON = "application/json";
    String TEXT = "text/plain;charset=utf-8";

    /** The view {@code view} (e.g. "home") rendered with {@code model}, sent with {@code status}. */
    record Page(int status, String view, Map<String, Object> model) implements Answer {
    }

    /** 303 See Other to a path of the application: after a POST, the browser GETs the page it names. */
    record SeeOther(String path) implements Answer {
    }

    /** A 200 JSON body. */
    record Json(String body) implements Answer {
    }

    /** One line of text outside any page. */
    record Text(int status, String line) implements Answer {
    }
}

package perflab.voicemail.lean.web;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.voicemail.VoicemailPages;

/**
 * The pages, small and server-rendered, each with the marker the traffic checks ({@link VoicemailPages}). User ids
 * are checked before they get here (letters, digits, '.', '_', '-'), so they need no HTML escaping.
 */
final class Pages {
    private Pages() {
    }

    static String index() {
        return "<!doctype html><html><head><title>Voice mail</title></head><body><h1>Voice mail</h1>"
                + "<p>Open <code>" + VoicemailPages.USERS + "{user}</code> to check a user's voice mail.</p></body></html>";
    }

    /** The user's page: a link that connects the phone to the voice mail, or one that hangs up. */
    static String user(String user, boolean inCall) {
        String base = VoicemailPages.page(user);
        return "<!doctype html><html><head><title>Voice mail of " + user + "</title></head><body "
                + VoicemailPages.USER_MARKER + user + "\"><h1>Voice mail of " + user + "</h1>"
                + (inCall ? "<p><a href=\"" + base + VoicemailPages.HANGUP + "\">Hang up</a></p>"
                : "<p><a href=\"" + base + VoicemailPages.CHECK + "\">Check voice mail</a>: your phone rings and "
                + "connects you to your mailbox.</p>")
                + "</body></html>";
    }

    /** The answer to the click (the call is up) or to the hang-up (it is down). */
    static String call(String user, boolean up) {
        String base = VoicemailPages.page(user);
        return "<!doctype html><html><head><title>Voice mail of " + user + "</title></head><body "
                + VoicemailPages.USER_MARKER + user + "\" " + (up ? VoicemailPages.CALL_UP : VoicemailPages.CALL_DOWN) + ">"
                + (up ? "<p>Your phone is connected to your voice mail. <a href=\"" + base + VoicemailPages.HANGUP
                + "\">Hang up</a></p>" : "<p>The call has ended. <a href=\"" + base + "\">Back</a></p>")
                + "</body></html>";
    }

    static void html(Response response, Callback callback, int status, String html) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=utf-8");
        Content.Sink.write(response, true, html, callback);
    }

    static void json(Response response, Callback callback, String json) {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        Content.Sink.write(response, true, json, callback);
    }

    /** A refusal: its status with a line saying why, as plain text. */
    static void problem(Response response, Callback callback, int status, String why) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        Content.Sink.write(response, true, why + "\n", callback);
    }
}

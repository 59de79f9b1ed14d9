package perflab.trade.lean.site;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * One HTTP request as the brokerage's pages need it, whatever server carries it: Jetty's core handlers in the lean
 * stack, a servlet container in the liberty stack. Each stack adapts its own request to this, so that the rules of
 * the site ({@link TradeSite}) are written once and the stacks differ only in how they serve and render.
 */
public interface SiteRequest {
    /** GET, POST, ... as sent. */
    String method();

    /** The path inside the application, from its first slash: {@code /home}. */
    String path();

    /** A query parameter's first value, or null; a malformed query is a {@link BadRequest}. */
    String queryParameter(String name);

    /** The Content-Type header, or null. */
    String contentType();

    /**
     * The url-encoded form of a POST's body, read at most {@code maxBytes} bytes (beyond: {@link BadRequest} 413) and
     * {@code maxFields} fields (beyond: {@link BadRequest} 400).
     */
    Form form(int maxFields, int maxBytes);

    /** The request's HTTP session, or null when it has none: never creates one. */
    SessionStore session();

    /**
     * A session for a user who has just logged in: the request's session under a new id and with nothing in it, or a
     * new one. An id the browser had before its login is then never the logged-in one.
     */
    SessionStore loginSession();

    /** Whether the client is on this machine (a loopback address). */
    boolean fromThisMachine();

    /** Whether {@code peer} is a loopback address: what a stack's {@link #fromThisMachine()} asks. */
    static boolean loopback(SocketAddress peer) {
        return peer instanceof InetSocketAddress a && a.getAddress() != null && a.getAddress().isLoopbackAddress();
    }

    /** A form's fields by name. */
    interface Form {
        /** The first value of {@code name}, or null. */
        String value(String name);
    }
}

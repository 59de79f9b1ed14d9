package perflab.soap.jetty;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import perflab.core.sut.ServerSettings;

/**
 * {@code --max-requests-per-connection}, a classic server's "max persistent requests per connection", which
 * Jetty 12 has no setting for: the requests are counted on the Jetty connection and the Nth HTTP/1.x answer
 * says {@code Connection: close}. HTTP/2 is never limited: its streams share one connection by design and it
 * has no Connection header. One policy per server; it keeps no state of its own.
 */
public final class RequestsPerConnection {
    private static final String SERVED = "perflab.requestsOnConnection";

    private final ServerSettings settings;

    public RequestsPerConnection(ServerSettings settings) {
        this.settings = settings;
    }

    /** Whether a limit is set at all (0 = unlimited): a stack may leave its hook out otherwise. */
    public boolean limited() {
        return settings.maxRequestsPerConnection() > 0;
    }

    /**
     * Counts one request on {@code connection}; true when it is the connection's last. For a stack that
     * reaches the Jetty connection but answers through another API (a servlet response).
     */
    public boolean countAndCheckLast(ConnectionMetaData connection) {
        if (!limited() || connection.getHttpVersion() == HttpVersion.HTTP_2) {
            return false;
        }
        // an int[] rather than an Integer: counted in place, one allocation per connection
        int[] served = (int[]) connection.getAttribute(SERVED);
        if (served == null) {
            served = new int[1];
            connection.setAttribute(SERVED, served);
        }
        return settings.lastRequestOnConnection(++served[0]);
    }

    /** Counts {@code request} and, on the connection's last, answers it with {@code Connection: close}. */
    public void apply(Request request, Response response) {
        if (countAndCheckLast(request.getConnectionMetaData())) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
    }
}

package perflab.soapecho.cxf;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.core.sut.ServerMetrics;
import perflab.core.sut.ServerSettings;

/**
 * A Jetty core handler that CXF's engine puts in front of its servlet contexts (JettyHTTPServerEngine's
 * handler list): it never answers (returns false, so CXF does), it only applies the connection limit and
 * observes each service request's HTTP version and service time — CXF's engine has neither knob.
 */
final class ConnectionPolicyHandler extends Handler.Abstract {
    private static final String REQUESTS_ON_CONNECTION = "perflab.requestsOnConnection";

    private final ServerSettings settings;
    private final ServerMetrics metrics; // null when off

    ConnectionPolicyHandler(ServerSettings settings, ServerMetrics metrics) {
        this.settings = settings;
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        ConnectionMetaData connection = request.getConnectionMetaData();
        boolean http2 = connection.getHttpVersion() == HttpVersion.HTTP_2;
        if (settings.maxRequestsPerConnection() > 0 && !http2) {
            limitRequestsPerConnection(connection, response);
        }
        if (metrics != null && HttpMethod.POST.is(request.getMethod())) {
            long start = System.nanoTime();
            Request.addCompletionListener(request, failure ->
                    metrics.record(System.nanoTime() - start, failure != null || response.getStatus() >= 500, http2));
        }
        return false; // CXF's contexts, next in the sequence, answer
    }

    /** "Max persistent requests per connection": Connection: close on the Nth HTTP/1.1 request (CXF keeps the header). */
    private void limitRequestsPerConnection(ConnectionMetaData connection, Response response) {
        int[] served = (int[]) connection.getAttribute(REQUESTS_ON_CONNECTION);
        if (served == null) {
            served = new int[1];
            connection.setAttribute(REQUESTS_ON_CONNECTION, served);
        }
        if (settings.lastRequestOnConnection(++served[0])) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
    }
}

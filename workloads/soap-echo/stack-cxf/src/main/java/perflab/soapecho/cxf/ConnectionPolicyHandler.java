package perflab.soapecho.cxf;

import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.core.sut.ServerMetrics;
import perflab.core.sut.ServerSettings;
import perflab.soap.jetty.RequestsPerConnection;

/**
 * A Jetty core handler that CXF's engine puts in front of its servlet contexts (JettyHTTPServerEngine's
 * handler list): it never answers (returns false, so CXF does), it only applies the shared connection limit
 * ({@link RequestsPerConnection}; CXF keeps the Connection header it sets) and observes each service request's
 * HTTP version and service time — CXF's engine has neither knob.
 */
final class ConnectionPolicyHandler extends Handler.Abstract {
    private final RequestsPerConnection connections;
    private final ServerMetrics metrics; // null when off

    ConnectionPolicyHandler(ServerSettings settings, ServerMetrics metrics) {
        this.connections = new RequestsPerConnection(settings);
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        connections.apply(request, response);
        boolean http2 = request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2;
        if (metrics != null && HttpMethod.POST.is(request.getMethod())) {
            long start = System.nanoTime();
            Request.addCompletionListener(request, failure ->
                    metrics.record(System.nanoTime() - start, failure != null || response.getStatus() >= 500, http2));
        }
        return false; // CXF's contexts, next in the sequence, answer
    }
}

package perflab.soap.jetty;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;

/**
 * Jetty's h2c factory (prior knowledge and Upgrade), taking an Upgrade: h2c only on a request without a
 * body. Jetty itself declines the upgrade when Content-Length is positive, but with a chunked body it sends
 * 101 and the request never gets its answer; declined, the request is answered over HTTP/1.1 like any other
 * (what CXF's Jetty engine does too). The JDK client, and so CXF's default conduit, sends the upgrade
 * headers on every POST.
 */
final class H2cConnectionFactory extends HTTP2CServerConnectionFactory {
    private H2cConnectionFactory(HttpConfiguration http) {
        super(http);
    }

    /** Typed as the interface, so that a caller's class never needs jetty-http2-server unless h2c is asked for. */
    static ConnectionFactory create(HttpConfiguration http) {
        return new H2cConnectionFactory(http);
    }

    @Override
    public Connection upgradeConnection(Connector connector, EndPoint endPoint, MetaData.Request request,
                                        HttpFields.Mutable response101) {
        if (request.getContentLength() > 0 || request.getHttpFields().contains(HttpHeader.TRANSFER_ENCODING)) {
            return null; // not upgraded: the HTTP/1.1 connection goes on and answers this request
        }
        return super.upgradeConnection(connector, endPoint, request, response101);
    }
}

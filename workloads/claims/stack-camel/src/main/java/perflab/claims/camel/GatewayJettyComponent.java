package perflab.claims.camel;

import org.apache.camel.component.jetty.JettyHttpEndpoint;
import org.apache.camel.component.jetty12.JettyHttpComponent12;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.RequestLogWriter;
import org.eclipse.jetty.server.Server;
import perflab.core.sut.ServerSettings;

/**
 * camel-jetty's component with perflab's server settings applied to the Jetty server it builds: no Server
 * header (as the lean stack), the access log when asked, a bounded stop. It also remembers the connector, so
 * a gateway started on port 0 can say which port it got (camel-jetty keeps that to itself).
 */
final class GatewayJettyComponent extends JettyHttpComponent12 {
    private final ServerSettings settings;
    private volatile Connector connector;

    GatewayJettyComponent(ServerSettings settings) {
        this.settings = settings;
    }

    @Override
    protected Connector createConnector(Server server, JettyHttpEndpoint endpoint) {
        Connector created = super.createConnector(server, endpoint);
        for (HttpConnectionFactory factory : created.getConnectionFactories().stream()
                .filter(HttpConnectionFactory.class::isInstance).map(HttpConnectionFactory.class::cast).toList()) {
            HttpConfiguration http = factory.getHttpConfiguration();
            http.setSendServerVersion(false);
            http.setSendXPoweredBy(false);
        }
        server.setStopTimeout(5_000);
        if (settings.accessLog()) {
            RequestLogWriter writer = new RequestLogWriter(settings.accessLogFile());
            writer.setAppend(true);
            server.setRequestLog(new CustomRequestLog(writer, CustomRequestLog.EXTENDED_NCSA_FORMAT));
        }
        connector = created;
        return created;
    }

    /** The port the gateway listens on, once started; -1 before. */
    int localPort() {
        return connector instanceof NetworkConnector network ? network.getLocalPort() : -1;
    }
}

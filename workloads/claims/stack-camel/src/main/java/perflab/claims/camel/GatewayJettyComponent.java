package perflab.claims.camel;

import org.apache.camel.component.jetty.JettyHttpEndpoint;
import org.apache.camel.component.jetty12.JettyHttpComponent12;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Server;
import perflab.core.sut.ServerSettings;
import perflab.soap.jetty.SutJettyServer;

/**
 * camel-jetty's component with perflab's server settings applied to the Jetty server it builds, as
 * {@link SutJettyServer} applies them on the lean stacks: no Server header, the access log when asked, a bounded stop. It also remembers the connector, so
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
        created.getConnectionFactories().stream().filter(HttpConnectionFactory.class::isInstance)
                .map(HttpConnectionFactory.class::cast)
                .forEach(factory -> SutJettyServer.hideServerIdentity(factory.getHttpConfiguration()));
        server.setStopTimeout(SutJettyServer.STOP_TIMEOUT_MS);
        CustomRequestLog log = SutJettyServer.accessLog(settings);
        if (log != null) {
            server.setRequestLog(log);
        }
        connector = created;
        return created;
    }

    /** The port the gateway listens on, once started; -1 before. */
    int localPort() {
        return connector instanceof NetworkConnector network ? network.getLocalPort() : -1;
    }
}

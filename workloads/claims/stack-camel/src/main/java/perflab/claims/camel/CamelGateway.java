package perflab.claims.camel;

import org.apache.camel.CamelContext;
import org.apache.camel.component.http.HttpComponent;
import org.apache.camel.impl.DefaultCamelContext;
import perflab.claims.backend.BackendLauncher;
import perflab.claims.backend.GatewaySettings;
import perflab.claims.contract.ClaimsContract;
import perflab.core.sut.ServerMetrics;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;
import perflab.soap.jetty.SutJettyServer;

import javax.xml.XMLConstants;
import javax.xml.transform.TransformerConfigurationException;
import javax.xml.transform.TransformerFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;

/**
 * The claims camel stack's SUT main: the six mediations as Apache Camel routes ({@link MediationRoutes}) on
 * Camel's own HTTP consumer (camel-jetty, Jetty 12.0) and producer (camel-http, Apache HttpClient 5, pooled),
 * camel-xslt over the contract's stylesheets and Camel's XPath for routing, in front of the same ClaimServices
 * back end as the lean stack ({@link BackendLauncher}). Settings: {@link ServerSettings} and
 * {@link GatewaySettings}, as the lean gateway; process protocol: {@link SutBootstrap}.
 */
public final class CamelGateway {
    /** The bean name the xslt endpoints find their TransformerFactory under. */
    static final String XSLT_FACTORY = "jdkXslt";

    private CamelGateway() {
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, GatewaySettings.NAMES, CamelGateway::start);
    }

    /** Starts the back end and the Camel gateway; also the entry point for in-process tests. */
    public static StartedServer start(SutArgs args) throws Exception {
        GatewaySettings settings = GatewaySettings.from(args);
        if (settings.server().http() != ServerSettings.Http.HTTP1) {
            throw new IllegalArgumentException("the camel stack serves HTTP/1.1 only: camel-jetty has no h2c; use --http http1");
        }
        return BackendLauncher.startWithGateway(settings, CamelGateway::startCamel);
    }

    private static StartedServer startCamel(GatewaySettings settings, String backendUrl, List<AutoCloseable> started)
            throws Exception {
        ServerSettings s = settings.server();
        ServerMetrics metrics = s.serverMetrics() ? new ServerMetrics() : null;
        CamelContext camel = new DefaultCamelContext();
        camel.getShutdownStrategy().setTimeout(5);
        // the routes read bodies themselves (bounded); a spool-to-disk stream cache would only add copies
        camel.setStreamCaching(false);
        camel.getRegistry().bind(XSLT_FACTORY, xsltFactory());

        GatewayJettyComponent jetty = new GatewayJettyComponent(s);
        jetty.setThreadPool(SutJettyServer.threadPool(s, "sut"));
        // a suspended exchange must outlive the slowest back-end call it may wait for (camel-jetty's default: 30 s)
        jetty.setContinuationTimeout((long) settings.backendTimeoutMs() + 5_000);
        camel.addComponent("jetty", jetty);
        camel.addComponent("http", backendClient(settings));

        camel.addRoutes(new MediationRoutes(settings, listenPort(s), backendUrl, metrics));
        started.add(0, camel::stop); // the gateway stops first, then the back end
        camel.start();
        int port = jetty.localPort();
        if (port <= 0) {
            throw new IllegalStateException("camel-jetty started no connector");
        }
        System.out.flush();
        List<AutoCloseable> stopOrder = List.copyOf(started);
        return new StartedServer(port, metrics, () -> BackendLauncher.stopAll(stopOrder));
    }

    /**
     * camel-jetty shares one Jetty server per host:port among all consumers of the JVM (a static map), so two
     * gateways asked for "any port" (0) would be merged into one: port 0 is resolved to a free port first.
     */
    private static int listenPort(ServerSettings s) throws IOException {
        if (s.port() != 0) {
            return s.port();
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(s.host(), 0));
            return probe.getLocalPort();
        }
    }

    /**
     * Camel's HTTP producer with the same back-end terms as the lean gateway's client: a bounded pool of
     * persistent connections per back end, the back-end timeout on connect, on waiting for a pooled connection
     * and on the answer, and none of a browser's habits (retries of a POST, redirects, cookies, compression).
     */
    private static HttpComponent backendClient(GatewaySettings settings) {
        HttpComponent http = new HttpComponent();
        http.setConnectionsPerRoute(settings.backendConnections());
        http.setMaxTotalConnections(settings.backendConnections() * ClaimsContract.REGIONS.size());
        http.setConnectTimeout(Math.min(5_000, settings.backendTimeoutMs()));
        http.setConnectionRequestTimeout(settings.backendTimeoutMs());
        http.setResponseTimeout(settings.backendTimeoutMs());
        http.setSoTimeout(settings.backendTimeoutMs());
        http.setAutomaticRetriesDisabled(true);
        http.setRedirectHandlingDisabled(true);
        http.setCookieManagementDisabled(true);
        http.setContentCompressionDisabled(true);
        http.setDefaultUserAgentDisabled(true);
        return http;
    }

    /** The JDK's own XSLTC (as in the lean stack), secure processing on; Camel compiles each stylesheet once. */
    private static TransformerFactory xsltFactory() throws TransformerConfigurationException {
        TransformerFactory factory = TransformerFactory.newDefaultInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        return factory;
    }
}

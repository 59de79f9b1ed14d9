package perflab.claims.lean;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import perflab.claims.backend.BackendLauncher;
import perflab.claims.backend.GatewaySettings;
import perflab.core.sut.ServerMetrics;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;
import perflab.soap.jetty.SutJettyServer;

import java.util.List;

/**
 * The claims lean stack's SUT main: the ESB gateway (Jetty 12 core, hardened StAX, JDK XSLTC) in front of the
 * ClaimServices back end, which it starts through {@link BackendLauncher} (its own JVM by default, stopped with
 * the gateway; the gateway's JVM with {@code --backend same-jvm}; none with {@code --backend-url}).
 * Settings: {@link ServerSettings} (applied by {@link SutJettyServer}; HTTP/1.1 only) and {@link GatewaySettings};
 * process protocol: {@link SutBootstrap}.
 */
public final class MediationGateway {
    private MediationGateway() {
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, GatewaySettings.NAMES, MediationGateway::start);
    }

    /** Starts the gateway and its back end; also the entry point for in-process tests. */
    public static StartedServer start(SutArgs args) throws Exception {
        GatewaySettings settings = GatewaySettings.from(args);
        // refused, not ignored: a run asked for h2c must not measure HTTP/1.1 and be reported as h2c
        if (settings.server().http() != ServerSettings.Http.HTTP1) {
            throw new IllegalArgumentException("the lean claims gateway serves HTTP/1.1 only (its camel peer has no h2c,"
                    + " so an h2c claims run would compare nothing); use --http http1");
        }
        return start(settings);
    }

    static StartedServer start(GatewaySettings settings) throws Exception {
        return BackendLauncher.startWithGateway(settings, MediationGateway::startGateway);
    }

    private static StartedServer startGateway(GatewaySettings settings, String backendUrl, List<AutoCloseable> started)
            throws Exception {
        ServerSettings s = settings.server();
        // persistent, pooled connections to the back end; asynchronous, so no gateway thread waits on a back end
        QueuedThreadPool clientThreads = new QueuedThreadPool(Math.max(8, s.serverThreads()), 4);
        clientThreads.setName("backend-client");
        clientThreads.setDaemon(true);
        HttpClient client = new HttpClient();
        client.setExecutor(clientThreads);
        client.setMaxConnectionsPerDestination(settings.backendConnections());
        client.setMaxRequestsQueuedPerDestination(64 * 1024);
        client.setConnectTimeout(Math.min(5_000, settings.backendTimeoutMs()));
        client.setIdleTimeout(60_000);
        client.setFollowRedirects(false);
        client.setUserAgentField(null);
        client.setHttpCookieStore(new HttpCookieStore.Empty());
        client.start();
        started.add(client::stop);

        SutJettyServer server = SutJettyServer.create(s, "sut");
        ServerMetrics metrics = s.serverMetrics() ? new ServerMetrics() : null;
        int port = server.start(new MediationHandler(settings, metrics, client, backendUrl));
        started.add(0, server::stop); // the gateway stops first, then its client, then the back end
        System.out.flush();
        List<AutoCloseable> stopOrder = List.copyOf(started);
        return new StartedServer(port, metrics, () -> BackendLauncher.stopAll(stopOrder));
    }
}

package perflab.claims.lean;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.RequestLogWriter;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import perflab.claims.backend.BackendLauncher;
import perflab.claims.backend.GatewaySettings;
import perflab.core.sut.ServerMetrics;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;

import java.util.List;

/**
 * The claims lean stack's SUT main: the ESB gateway (Jetty 12 core, hardened StAX, JDK XSLTC) in front of the
 * ClaimServices back end, which it starts through {@link BackendLauncher} (its own JVM by default, stopped with
 * the gateway; the gateway's JVM with {@code --backend same-jvm}; none with {@code --backend-url}).
 * Settings: {@link ServerSettings} and {@link GatewaySettings}; process protocol: {@link SutBootstrap}.
 */
public final class MediationGateway {
    private MediationGateway() {
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, GatewaySettings.NAMES, MediationGateway::start);
    }

    /** Starts the gateway and its back end; also the entry point for in-process tests. */
    public static StartedServer start(SutArgs args) throws Exception {
        return start(GatewaySettings.from(args));
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

        QueuedThreadPool threads = new QueuedThreadPool(s.serverThreads(), Math.min(8, s.serverThreads()));
        threads.setName("sut");
        Server server = new Server(threads);
        server.setStopTimeout(5_000);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(s.host());
        connector.setPort(s.port());
        server.addConnector(connector);
        ServerMetrics metrics = s.serverMetrics() ? new ServerMetrics() : null;
        server.setHandler(new MediationHandler(settings, metrics, client, backendUrl));
        if (s.accessLog()) {
            RequestLogWriter writer = new RequestLogWriter(s.accessLogFile());
            writer.setAppend(true);
            server.setRequestLog(new CustomRequestLog(writer, CustomRequestLog.EXTENDED_NCSA_FORMAT));
        }
        server.start();
        started.add(0, server::stop); // the gateway stops first, then its client, then the back end
        System.out.flush();
        List<AutoCloseable> stopOrder = List.copyOf(started);
        return new StartedServer(connector.getLocalPort(), metrics, () -> BackendLauncher.stopAll(stopOrder));
    }
}

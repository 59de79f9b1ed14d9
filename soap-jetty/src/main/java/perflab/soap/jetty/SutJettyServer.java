package perflab.soap.jetty;

import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.RequestLogWriter;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import perflab.core.sut.ServerSettings;

/**
 * A SUT's Jetty 12 server as every perflab stack runs it, from its {@link ServerSettings}: a named pool of
 * {@code server-threads}, one connector on host:port serving HTTP/1.1 (and h2c beside it with {@code --http h2c}),
 * no Server header, the access log when asked, a bounded graceful stop. The static parts serve stacks whose
 * product builds the Jetty server itself (CXF's engine, camel-jetty). Works on Jetty 12.0 and 12.1 alike.
 */
public final class SutJettyServer {
    /** How long a stop waits for requests in flight. */
    public static final long STOP_TIMEOUT_MS = 5_000;

    private final Server server;
    private final ServerConnector connector;

    private SutJettyServer(Server server, ServerConnector connector) {
        this.server = server;
        this.connector = connector;
    }

    /** A server not yet started; {@code threadName} names its pool's threads (profiles, thread dumps). */
    public static SutJettyServer create(ServerSettings settings, String threadName) {
        Server server = new Server(threadPool(settings, threadName));
        server.setStopTimeout(STOP_TIMEOUT_MS);
        HttpConfiguration http = new HttpConfiguration();
        hideServerIdentity(http);
        ServerConnector connector = new ServerConnector(server, connectionFactories(settings, http));
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        server.addConnector(connector);
        CustomRequestLog log = accessLog(settings);
        if (log != null) {
            server.setRequestLog(log);
        }
        return new SutJettyServer(server, connector);
    }

    /**
     * HTTP/1.1 always; with h2c also HTTP/2 cleartext, by prior knowledge (Jetty's HTTP/1.1 connection hands
     * a "PRI * HTTP/2.0" preface to the h2c factory) and by Upgrade on requests without a body.
     */
    private static ConnectionFactory[] connectionFactories(ServerSettings settings, HttpConfiguration http) {
        HttpConnectionFactory http1 = new HttpConnectionFactory(http);
        if (settings.http() == ServerSettings.Http.HTTP1) {
            return new ConnectionFactory[] {http1};
        }
        return new ConnectionFactory[] {http1, H2cConnectionFactory.create(http)};
    }

    /** For what a stack sets beyond the common settings (its error handler...) before {@link #start}. */
    public Server server() {
        return server;
    }

    /** Starts serving with {@code handler}; returns the port bound (the real one when asked for port 0). */
    public int start(Handler handler) throws Exception {
        server.setHandler(handler);
        server.start();
        return connector.getLocalPort();
    }

    /** Graceful: the connector stops accepting, requests in flight finish (within the stop timeout). */
    public void stop() throws Exception {
        server.stop();
    }

    /** {@code server-threads} at most, a few kept when idle. */
    public static QueuedThreadPool threadPool(ServerSettings settings, String threadName) {
        QueuedThreadPool threads = new QueuedThreadPool(settings.serverThreads(), Math.min(8, settings.serverThreads()));
        threads.setName(threadName);
        return threads;
    }

    /** No Server or X-Powered-By header: answers the same size on every stack, and nothing to fingerprint. */
    public static void hideServerIdentity(HttpConfiguration http) {
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
    }

    /** The NCSA (extended) access log, appended to {@code access-log-file}; null when {@code --access-log} is off. */
    public static CustomRequestLog accessLog(ServerSettings settings) {
        if (!settings.accessLog()) {
            return null;
        }
        RequestLogWriter writer = new RequestLogWriter(settings.accessLogFile());
        writer.setAppend(true);
        return new CustomRequestLog(writer, CustomRequestLog.EXTENDED_NCSA_FORMAT);
    }
}

package perflab.soapecho.lean;

import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.RequestLogWriter;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import perflab.core.sut.RunningServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;

/**
 * The soap-echo lean stack's SUT main: Jetty 12 core (HTTP/1.1, and h2c with {@code --http h2c}; no servlet layer) in front of a StAX
 * echo service. Settings: see {@link LeanSettings#NAMES}; process protocol: {@link SutBootstrap}.
 */
public final class LeanSoapEchoServer {
    private LeanSoapEchoServer() {
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, LeanSettings.NAMES, LeanSoapEchoServer::start);
    }

    /** Starts the server; also the entry point for in-process tests. */
    public static RunningServer start(SutArgs args) throws Exception {
        return start(LeanSettings.from(args));
    }

    /**
     * HTTP/1.1 always; with {@code --http h2c} also HTTP/2 cleartext: by prior knowledge (Jetty's HTTP/1.1
     * connection hands a "PRI * HTTP/2.0" preface to the h2c factory) and by Upgrade: h2c on requests
     * without a body ({@link H2cConnectionFactory}).
     */
    private static ConnectionFactory[] connectionFactories(LeanSettings settings, HttpConfiguration http) {
        HttpConnectionFactory http1 = new HttpConnectionFactory(http);
        if (settings.http() == LeanSettings.Http.HTTP1) {
            return new ConnectionFactory[] {http1};
        }
        return new ConnectionFactory[] {http1, new H2cConnectionFactory(http)};
    }

    static RunningServer start(LeanSettings settings) throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool(settings.serverThreads(), Math.min(8, settings.serverThreads()));
        threads.setName("sut");
        Server server = new Server(threads);
        server.setStopTimeout(5_000);

        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        ServerConnector connector = new ServerConnector(server, connectionFactories(settings, http));
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        server.addConnector(connector);

        ServerMetrics metrics = settings.serverMetrics() ? new ServerMetrics() : null;
        server.setHandler(new SoapEchoHandler(settings, metrics));
        server.setErrorHandler(new PlainErrorHandler());
        if (settings.accessLog()) {
            RequestLogWriter writer = new RequestLogWriter(settings.accessLogFile());
            writer.setAppend(true);
            server.setRequestLog(new CustomRequestLog(writer, CustomRequestLog.EXTENDED_NCSA_FORMAT));
        }
        server.start();
        return new Running(connector.getLocalPort(), server, metrics);
    }

    /** The started stack; tests read its metrics without parsing stdout. */
    static final class Running implements RunningServer {
        private final int port;
        private final Server server;
        private final ServerMetrics metrics; // null when off

        private Running(int port, Server server, ServerMetrics metrics) {
            this.port = port;
            this.server = server;
            this.metrics = metrics;
        }

        @Override
        public int port() {
            return port;
        }

        ServerMetrics metrics() {
            return metrics;
        }

        @Override
        public void stop() throws Exception {
            server.stop();
            if (metrics != null) {
                System.out.println(metrics.summaryLine());
                System.out.flush();
            }
        }
    }
}

package perflab.soapecho.lean;

import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.RequestLogWriter;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import perflab.core.sut.ServerMetrics;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;

/**
 * The soap-echo lean stack's SUT main: Jetty 12 core (HTTP/1.1, and h2c with {@code --http h2c}; no servlet layer) in front of a StAX
 * echo service. Settings: {@link ServerSettings} (a body larger than max-request-bytes is a Client fault); process
 * protocol: {@link SutBootstrap}.
 */
public final class LeanSoapEchoServer {
    private LeanSoapEchoServer() {
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, ServerSettings.NAMES, LeanSoapEchoServer::start);
    }

    /** Starts the server; also the entry point for in-process tests. */
    public static StartedServer start(SutArgs args) throws Exception {
        return start(ServerSettings.from(args));
    }

    /**
     * HTTP/1.1 always; with {@code --http h2c} also HTTP/2 cleartext: by prior knowledge (Jetty's HTTP/1.1
     * connection hands a "PRI * HTTP/2.0" preface to the h2c factory) and by Upgrade: h2c on requests
     * without a body ({@link H2cConnectionFactory}).
     */
    private static ConnectionFactory[] connectionFactories(ServerSettings settings, HttpConfiguration http) {
        HttpConnectionFactory http1 = new HttpConnectionFactory(http);
        if (settings.http() == ServerSettings.Http.HTTP1) {
            return new ConnectionFactory[] {http1};
        }
        return new ConnectionFactory[] {http1, new H2cConnectionFactory(http)};
    }

    static StartedServer start(ServerSettings settings) throws Exception {
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
        return new StartedServer(connector.getLocalPort(), metrics, server::stop);
    }
}

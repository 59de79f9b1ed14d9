package perflab.soapecho.lean;

import perflab.core.sut.ServerMetrics;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;
import perflab.soap.jetty.PlainErrorHandler;
import perflab.soap.jetty.SutJettyServer;

/**
 * The soap-echo lean stack's SUT main: Jetty 12 core (HTTP/1.1, and h2c with {@code --http h2c}; no servlet layer) in front of a StAX
 * echo service. Settings: {@link ServerSettings} (a body larger than max-request-bytes is a Client fault), applied
 * by {@link SutJettyServer}; process protocol: {@link SutBootstrap}.
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

    static StartedServer start(ServerSettings settings) throws Exception {
        SutJettyServer jetty = SutJettyServer.create(settings, "sut");
        jetty.server().setErrorHandler(new PlainErrorHandler());
        ServerMetrics metrics = settings.serverMetrics() ? new ServerMetrics() : null;
        int port = jetty.start(new SoapEchoHandler(settings, metrics));
        return new StartedServer(port, metrics, jetty::stop);
    }
}

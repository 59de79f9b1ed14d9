package perflab.soapecho.cxf;

import org.apache.cxf.Bus;
import org.apache.cxf.BusFactory;
import org.apache.cxf.endpoint.Server;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;
import org.apache.cxf.staxutils.StaxUtils;
import org.apache.cxf.transport.http.HttpServerEngineSupport;
import org.apache.cxf.transport.http_jetty.JettyHTTPServerEngine;
import org.apache.cxf.transport.http_jetty.JettyHTTPServerEngineFactory;
import org.apache.cxf.transport.http_jetty.ThreadingParameters;
import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.ServerConnector;
import perflab.core.sut.ServerMetrics;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;
import perflab.soap.jetty.SutJettyServer;
import perflab.soapecho.contract.PerfContract;
import perflab.soapecho.cxf.generated.DocPortType;

import javax.xml.namespace.QName;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The soap-echo cxf stack's SUT main: Apache CXF 4 JAX-WS ({@link PerfEchoService} on the service interface
 * that cxf-codegen-plugin generates from perf.wsdl) published on CXF's own Jetty transport at
 * {@link PerfContract#SERVICE_PATH}. Settings: {@link ServerSettings}, as the lean stack takes them (server-threads
 * through CXF's threading parameters; max-request-bytes as CXF's {@code org.apache.cxf.stax.maxXMLCharacters}, the
 * XML characters it parses in one request); process protocol: {@link SutBootstrap}.
 *
 * <p>Port 0: CXF's Jetty engines live in a JVM-wide map keyed by the configured port, so two endpoints both
 * published on port 0 would share one engine. We therefore pick a free port first (bind port 0, read it, close)
 * and publish on that number, retrying with a new one if another process takes it in between.
 */
public final class CxfSoapEchoServer {
    static final String WSDL_LOCATION = "classpath:perflab/soapecho/contract/" + PerfContract.WSDL_RESOURCE;
    private static final int PORT_ATTEMPTS = 5;
    /** Held so that the level set on them is not lost with a collected logger; CXF logs through JUL. */
    private static final List<Logger> QUIET = List.of(Logger.getLogger("org.apache.cxf"));

    private CxfSoapEchoServer() {
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, ServerSettings.NAMES, CxfSoapEchoServer::start);
    }

    /** Starts the server; also the entry point for in-process tests. */
    public static StartedServer start(SutArgs args) throws Exception {
        return start(ServerSettings.from(args));
    }

    static StartedServer start(ServerSettings settings) throws Exception {
        QUIET.forEach(l -> l.setLevel(Level.WARNING)); // its INFO lines (publish address, ...) are noise on stderr
        if (settings.port() != 0) {
            return publish(settings, settings.port());
        }
        BindException last = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            try {
                return publish(settings, freePort(settings.host()));
            } catch (Exception e) {
                BindException bind = bindFailure(e);
                if (bind == null) {
                    throw e;
                }
                last = bind; // someone took the port between our probe and CXF's bind: try another
            }
        }
        throw last;
    }

    private static StartedServer publish(ServerSettings settings, int port) throws Exception {
        Bus bus = BusFactory.newInstance().createBus();
        try {
            // CXF's Jetty engine adds an h2c connection factory whenever jetty-http2-server is on the classpath,
            // unless this bus property says false; "true" makes it fail rather than silently serve HTTP/1.1 only.
            bus.setProperty(HttpServerEngineSupport.ENABLE_HTTP2, settings.http() == ServerSettings.Http.H2C ? "true" : "false");

            JettyHTTPServerEngine engine = bus.getExtension(JettyHTTPServerEngineFactory.class)
                    .createJettyHTTPServerEngine(settings.host(), port, "http");
            ThreadingParameters threads = new ThreadingParameters();
            threads.setMaxThreads(settings.serverThreads());
            threads.setMinThreads(Math.min(8, settings.serverThreads()));
            threads.setThreadNamePrefix("sut");
            engine.setThreadingParameters(threads);
            ServerMetrics metrics = settings.serverMetrics() ? new ServerMetrics() : null;
            if (metrics != null || settings.maxRequestsPerConnection() > 0) {
                engine.setHandlers(List.of(new ConnectionPolicyHandler(settings, metrics)));
            }

            JaxWsServerFactoryBean factory = new JaxWsServerFactoryBean();
            factory.setBus(bus);
            factory.setServiceClass(DocPortType.class);
            factory.setServiceBean(new PerfEchoService());
            factory.setWsdlLocation(WSDL_LOCATION);
            factory.setServiceName(new QName(PerfContract.NAMESPACE, PerfContract.SERVICE));
            factory.setEndpointName(new QName(PerfContract.NAMESPACE, PerfContract.PORT));
            factory.setAddress("http://" + hostForUrl(settings.host()) + ":" + port + PerfContract.SERVICE_PATH);
            // CXF's own parser limits, per endpoint: the body-size limit counts XML characters, so it holds for
            // chunked bodies too, and parsing stops (with a fault) as soon as it is passed
            factory.setProperties(Map.of(
                    StaxUtils.MAX_XML_CHARACTERS, (long) settings.maxRequestBytes(),
                    StaxUtils.MAX_TEXT_LENGTH, settings.maxRequestBytes()));
            Server server = factory.create(); // binds and starts Jetty

            org.eclipse.jetty.server.Server jetty = engine.getServer();
            jetty.setStopTimeout(5_000);
            CustomRequestLog log = SutJettyServer.accessLog(settings);
            if (log != null) {
                log.start(); // CXF has started the server already: it would not start the log for us
                jetty.setRequestLog(log);
            }
            return new StartedServer(((ServerConnector) engine.getConnector()).getLocalPort(), metrics, () -> {
                try {
                    jetty.stop(); // graceful: in-flight requests finish, connectors close
                    server.destroy();
                } finally {
                    bus.shutdown(true);
                }
            });
        } catch (Exception | Error e) {
            bus.shutdown(true);
            throw e;
        }
    }

    private static int freePort(String host) throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return probe.getLocalPort();
        }
    }

    private static BindException bindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof BindException bind) {
                return bind;
            }
        }
        return null;
    }

    private static String hostForUrl(String host) {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}

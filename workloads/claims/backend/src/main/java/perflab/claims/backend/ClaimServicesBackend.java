package perflab.claims.backend;

import perflab.soap.jetty.JettyAnswers;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import perflab.claims.contract.ClaimsContract;
import perflab.core.sut.RunningServer;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;
import perflab.soap.BoundedBody;
import perflab.soap.HardenedXml;
import perflab.soap.SoapEnvelopeReader;
import perflab.soap.SoapFault;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The ClaimServices back end: one Jetty 12 server with a ClaimServices endpoint per region at
 * {@code /ClaimServices/<region>}. Its own JVM by default (a gateway starts it with {@link BackendProcess}), or
 * inside a gateway's JVM ({@link #start(ServerSettings)}). Process protocol: {@link SutBootstrap}.
 */
public final class ClaimServicesBackend implements RunningServer {
    private static final String TEXT_XML = "text/xml; charset=UTF-8";

    private final Server server;
    private final int port;
    private final LongAdder received;

    private ClaimServicesBackend(Server server, int port, LongAdder received) {
        this.server = server;
        this.port = port;
        this.received = received;
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, ServerSettings.NAMES, ClaimServicesBackend::start);
    }

    public static ClaimServicesBackend start(SutArgs args) throws Exception {
        return start(ServerSettings.from(args));
    }

    public static ClaimServicesBackend start(ServerSettings settings) throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool(settings.serverThreads(), Math.min(8, settings.serverThreads()));
        threads.setName("claims-backend");
        Server server = new Server(threads);
        server.setStopTimeout(5_000);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        server.addConnector(connector);
        LongAdder received = new LongAdder();
        server.setHandler(new ServicesHandler(settings.maxRequestBytes(), received));
        server.start();
        return new ClaimServicesBackend(server, connector.getLocalPort(), received);
    }

    @Override
    public int port() {
        return port;
    }

    /** Requests that reached a service (the tests' evidence that a refused message never got here). */
    public long received() {
        return received.sum();
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }

    /** Dispatches by path to the regional service; every failure is a SOAP 1.1 fault. */
    private static final class ServicesHandler extends Handler.Abstract {
        private final Map<String, ClaimService> services = new HashMap<>();
        private final int maxRequestBytes;
        private final LongAdder received;

        ServicesHandler(int maxRequestBytes, LongAdder received) {
            this.maxRequestBytes = maxRequestBytes;
            this.received = received;
            SoapEnvelopeReader envelopes = new SoapEnvelopeReader(
                    HardenedXml.inputFactory(HardenedXml.Limits.forDocumentsUpTo(maxRequestBytes)));
            for (String region : ClaimsContract.REGIONS) {
                services.put(ClaimsContract.BACKEND_PATH + region, new ClaimService(region, envelopes));
            }
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            ClaimService service = services.get(request.getHttpURI().getPath());
            if (service == null) {
                byte[] text = ("no ClaimServices here; they are at " + ClaimsContract.BACKEND_PATH + "{"
                        + String.join(",", ClaimsContract.REGIONS) + "}\n").getBytes(StandardCharsets.UTF_8);
                response.setStatus(404);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=UTF-8");
                response.write(true, ByteBuffer.wrap(text), callback);
                return true;
            }
            received.increment();
            try {
                if (!HttpMethod.POST.is(request.getMethod())) {
                    throw SoapFault.client(request.getMethod() + " is not supported here: POST a SOAP 1.1 envelope");
                }
                BoundedBody body = BoundedBody.read(Request.asInputStream(request), request.getLength(), maxRequestBytes);
                byte[] out = service.invoke(body.array(), body.length());
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, TEXT_XML);
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, out.length);
                response.write(true, ByteBuffer.wrap(out), callback);
            } catch (SoapFault f) {
                JettyAnswers.fault(response, callback, f, f.reason().startsWith("request body exceeds"));
            } catch (IOException e) {
                JettyAnswers.fault(response, callback, SoapFault.client("could not read the request body: " + e.getMessage()), true);
            } catch (RuntimeException | StackOverflowError e) {
                JettyAnswers.fault(response, callback, SoapFault.server("internal error: " + e.getClass().getSimpleName(), e), true);
            }
            return true;
        }

    }
}

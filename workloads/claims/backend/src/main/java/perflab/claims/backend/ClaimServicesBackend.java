package perflab.claims.backend;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.claims.contract.ClaimsContract;
import perflab.core.sut.RunningServer;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;
import perflab.soap.BoundedBody;
import perflab.soap.SoapAdmission;
import perflab.soap.SoapFault;
import perflab.soap.jetty.JettyAnswers;
import perflab.soap.jetty.SutJettyServer;

import java.io.IOException;
import java.nio.ByteBuffer;
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

    private final SutJettyServer server;
    private final int port;
    private final LongAdder received;

    private ClaimServicesBackend(SutJettyServer server, int port, LongAdder received) {
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
        SutJettyServer server = SutJettyServer.create(settings, "claims-backend");
        LongAdder received = new LongAdder();
        int port = server.start(new ServicesHandler(new SoapAdmission(settings.maxRequestBytes()), received));
        return new ClaimServicesBackend(server, port, received);
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
        private final SoapAdmission admission;
        private final LongAdder received;

        ServicesHandler(SoapAdmission admission, LongAdder received) {
            this.admission = admission;
            this.received = received;
            for (String region : ClaimsContract.REGIONS) {
                services.put(ClaimsContract.BACKEND_PATH + region, new ClaimService(region, admission.envelopes()));
            }
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            ClaimService service = services.get(request.getHttpURI().getPath());
            if (service == null) {
                JettyAnswers.plain(response, callback, 404, "no ClaimServices here; they are at "
                        + ClaimsContract.BACKEND_PATH + "{" + String.join(",", ClaimsContract.REGIONS) + "}");
                return true;
            }
            received.increment();
            try {
                BoundedBody body = admission.admit(request.getMethod(), Request.asInputStream(request), request.getLength());
                byte[] out = service.invoke(body.array(), body.length());
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, TEXT_XML);
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, out.length);
                response.write(true, ByteBuffer.wrap(out), callback);
            } catch (SoapFault | IOException | RuntimeException | StackOverflowError e) {
                JettyAnswers.failure(response, callback, e);
            }
            return true;
        }
    }
}

package perflab.claims.lean;

import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.ByteBufferRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.claims.backend.GatewaySettings;
import perflab.claims.contract.ClaimsContract;
import perflab.core.sut.ServerMetrics;
import perflab.soap.BoundedBody;
import perflab.soap.SoapAdmission;
import perflab.soap.SoapFault;
import perflab.soap.SoapFaultWriter;
import perflab.soap.jetty.JettyAnswers;
import perflab.soap.jetty.RequestsPerConnection;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The gateway's endpoints on Jetty, one per mediation at {@code /esb/<mediation>}: each request is admitted
 * ({@link SoapAdmission}: POST, bounded body), mediated by the {@link MediationPlan} (hostile XML is refused
 * there, before any back end is called), and sent to the back end with Jetty's asynchronous client: no gateway
 * thread waits for a back end, and every failure (refused, slow past the timeout, a fault) reaches the client
 * as a SOAP fault.
 */
final class MediationHandler extends Handler.Abstract {
    private static final String TEXT_XML = "text/xml; charset=UTF-8";
    private static final int MAX_BACKEND_RESPONSE_BYTES = 16 * 1024 * 1024;

    private final GatewaySettings settings;
    private final ServerMetrics metrics; // null when off
    private final HttpClient client;
    private final String backendBase; // http://host:port/ClaimServices/
    private final SoapAdmission admission;
    private final MediationPlan plan;
    private final RequestsPerConnection connections;

    MediationHandler(GatewaySettings settings, ServerMetrics metrics, HttpClient client, String backendBaseUrl) {
        this.settings = settings;
        this.metrics = metrics;
        this.client = client;
        this.backendBase = backendBaseUrl + ClaimsContract.BACKEND_PATH;
        this.admission = new SoapAdmission(settings.server().maxRequestBytes());
        this.plan = new MediationPlan(admission);
        this.connections = new RequestsPerConnection(settings.server());
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        MediationPlan.Mediation mediation = MediationPlan.mediation(request.getHttpURI().getPath());
        if (mediation == null) {
            JettyAnswers.plain(response, callback, 404, "no mediation at this path; the mediations are at "
                    + ClaimsContract.GATEWAY_PATH + "{" + String.join(",", ClaimsContract.MEDIATIONS) + "}");
            return true;
        }
        connections.apply(request, response);
        long start = System.nanoTime();
        boolean http2 = request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2;
        MediationPlan.Outbound out;
        try {
            BoundedBody body = admission.admit(request.getMethod(), Request.asInputStream(request), request.getLength());
            out = plan.mediate(mediation, body.array(), body.length());
        } catch (SoapFault | IOException | RuntimeException | StackOverflowError e) {
            JettyAnswers.failure(response, callback, e);
            record(start, true, http2);
            return true;
        }
        callBackend(out, response, callback, start, http2);
        return true;
    }

    private void callBackend(MediationPlan.Outbound out, Response response, Callback callback, long start, boolean http2) {
        String service = ClaimsContract.serviceName(out.region());
        client.newRequest(backendBase + out.region())
                .method(HttpMethod.POST)
                .headers(h -> h.put("SOAPAction", "\"\""))
                .body(new ByteBufferRequestContent(TEXT_XML, ByteBuffer.wrap(out.body(), 0, out.bodyLength())))
                .timeout(settings.backendTimeoutMs(), TimeUnit.MILLISECONDS)
                .send(new BufferingResponseListener(MAX_BACKEND_RESPONSE_BYTES) {
                    @Override
                    public void onComplete(Result result) {
                        boolean faulted = true;
                        try {
                            if (result.isFailed()) {
                                JettyAnswers.fault(response, callback, backendFailure(service, result.getFailure()), false);
                                return;
                            }
                            int status = result.getResponse().getStatus();
                            byte[] answer = getContent();
                            if (status == 200) {
                                xml(response, callback, 200, plan.answer(out, answer));
                                faulted = false;
                            } else if (status == SoapFaultWriter.HTTP_STATUS && answer.length > 0 && isXml(getMediaType())) {
                                xml(response, callback, SoapFaultWriter.HTTP_STATUS, answer); // the back end's fault, relayed
                            } else {
                                JettyAnswers.fault(response, callback, new SoapFault(SoapFault.Code.SERVER,
                                        "back end " + service + " answered HTTP " + status), false);
                            }
                        } catch (SoapFault f) {
                            JettyAnswers.fault(response, callback, new SoapFault(SoapFault.Code.SERVER,
                                    "the answer of back end " + service + " could not be mediated: " + f.reason()), false);
                        } catch (RuntimeException | StackOverflowError e) {
                            JettyAnswers.failure(response, callback, e);
                        } finally {
                            record(start, faulted, http2);
                        }
                    }
                });
    }

    private static boolean isXml(String mediaType) {
        return mediaType != null && mediaType.toLowerCase(Locale.ROOT).contains("xml");
    }

    private SoapFault backendFailure(String service, Throwable failure) {
        if (failure instanceof TimeoutException) {
            return new SoapFault(SoapFault.Code.SERVER, "back end " + service + " did not answer within "
                    + settings.backendTimeoutMs() + " ms");
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof VirtualMachineError) {
            // the gateway's own heap ran out while it held the answer: not the back end's failure
            return new SoapFault(SoapFault.Code.SERVER, "the gateway could not take back end " + service
                    + "'s answer: " + root);
        }
        if (root instanceof ConnectException || failure instanceof ConnectException) {
            return new SoapFault(SoapFault.Code.SERVER, "back end " + service + " is unreachable: " + root.getMessage());
        }
        return new SoapFault(SoapFault.Code.SERVER, "back end " + service + " failed: "
                + (root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage()));
    }

    private void record(long start, boolean fault, boolean http2) {
        if (metrics != null) {
            metrics.record(System.nanoTime() - start, fault, http2);
        }
    }

    private static void xml(Response response, Callback callback, int status, byte[] body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, TEXT_XML);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}

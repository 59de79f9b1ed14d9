package perflab.claims.lean;

import perflab.soap.jetty.JettyAnswers;
import com.ctc.wstx.exc.WstxLazyException;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.ByteBufferRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.claims.backend.GatewaySettings;
import perflab.claims.backend.MediationRules;
import perflab.claims.contract.ClaimsContract;
import perflab.core.sut.ServerMetrics;
import perflab.soap.BoundedBody;
import perflab.soap.HardenedXml;
import perflab.soap.SoapEnvelopeReader;
import perflab.soap.SoapFault;
import perflab.soap.SoapFaultWriter;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.transform.TransformerException;
import java.io.IOException;
import java.net.ConnectException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The gateway's endpoints, one per mediation at {@code /esb/<mediation>}. Every request's envelope is opened
 * with the hardened reader first (a DOCTYPE, an entity, a non-SOAP document is refused before any back end is
 * called); then the mediation reads only what it needs: nothing more (passthrough), up to the routing field
 * (route-on-body, composite), or all of it through a stylesheet (transforms). The back-end call is asynchronous:
 * no gateway thread waits for a back end, and every failure (refused, slow past the timeout, a fault) reaches
 * the client as a SOAP fault.
 */
final class MediationHandler extends Handler.Abstract {
    private static final String TEXT_XML = "text/xml; charset=UTF-8";
    private static final String REQUESTS_ON_CONNECTION = "perflab.requestsOnConnection";
    private static final int MAX_BACKEND_RESPONSE_BYTES = 16 * 1024 * 1024;

    enum Mediation { PASSTHROUGH, TRANSFORM_VALUE, TRANSFORM_NAMESPACE, TRANSFORM_SCHEMA, ROUTE_ON_BODY, COMPOSITE }

    private final GatewaySettings settings;
    private final ServerMetrics metrics; // null when off
    private final HttpClient client;
    private final String backendBase; // http://host:port/ClaimServices/
    private final XMLInputFactory input;
    private final SoapEnvelopeReader envelopes;
    private final Stylesheets stylesheets;

    MediationHandler(GatewaySettings settings, ServerMetrics metrics, HttpClient client, String backendBaseUrl) {
        this.settings = settings;
        this.metrics = metrics;
        this.client = client;
        this.backendBase = backendBaseUrl + ClaimsContract.BACKEND_PATH;
        this.input = HardenedXml.inputFactory(HardenedXml.Limits.forDocumentsUpTo(settings.server().maxRequestBytes()));
        this.envelopes = new SoapEnvelopeReader(input);
        this.stylesheets = new Stylesheets(input);
    }

    static Mediation mediation(String path) {
        if (!path.startsWith(ClaimsContract.GATEWAY_PATH)) {
            return null;
        }
        return switch (path.substring(ClaimsContract.GATEWAY_PATH.length())) {
            case ClaimsContract.PASSTHROUGH -> Mediation.PASSTHROUGH;
            case ClaimsContract.TRANSFORM_VALUE -> Mediation.TRANSFORM_VALUE;
            case ClaimsContract.TRANSFORM_NAMESPACE -> Mediation.TRANSFORM_NAMESPACE;
            case ClaimsContract.TRANSFORM_SCHEMA -> Mediation.TRANSFORM_SCHEMA;
            case ClaimsContract.ROUTE_ON_BODY -> Mediation.ROUTE_ON_BODY;
            case ClaimsContract.COMPOSITE -> Mediation.COMPOSITE;
            default -> null;
        };
    }

    /** What goes to the back end, and what to do with its answer. */
    private record Outbound(String region, byte[] body, int length, ClaimsContract.Stylesheet responseSheet,
                            String contextValue) {
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Mediation mediation = mediation(request.getHttpURI().getPath());
        if (mediation == null) {
            JettyAnswers.plain(response, callback, 404, "no mediation at this path; the mediations are at "
                    + ClaimsContract.GATEWAY_PATH + "{" + String.join(",", ClaimsContract.MEDIATIONS) + "}");
            return true;
        }
        limitRequestsPerConnection(request, response);
        long start = System.nanoTime();
        boolean http2 = request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2;
        Outbound out;
        try {
            if (!HttpMethod.POST.is(request.getMethod())) {
                throw SoapFault.client(request.getMethod() + " is not supported here: POST a SOAP 1.1 envelope");
            }
            BoundedBody body = BoundedBody.read(Request.asInputStream(request), request.getLength(),
                    settings.server().maxRequestBytes());
            out = mediate(mediation, body.array(), body.length());
        } catch (SoapFault f) {
            JettyAnswers.fault(response, callback, f, f.reason().startsWith("request body exceeds"));
            record(start, true, http2);
            return true;
        } catch (IOException e) {
            JettyAnswers.fault(response, callback, SoapFault.client("could not read the request body: " + e.getMessage()), true);
            record(start, true, http2);
            return true;
        } catch (RuntimeException | StackOverflowError e) {
            JettyAnswers.fault(response, callback, SoapFault.server("internal error: " + e.getClass().getSimpleName(), e), true);
            record(start, true, http2);
            return true;
        }
        callBackend(out, response, callback, start, http2);
        return true;
    }

    private Outbound mediate(Mediation mediation, byte[] body, int length) throws SoapFault {
        try (SoapEnvelopeReader.Envelope envelope = envelopes.open(body, length)) {
            XMLStreamReader payload = envelope.reader();
            switch (mediation) {
                case PASSTHROUGH:
                    return new Outbound(ClaimsContract.DEFAULT_REGION, body, length, null, null);
                case TRANSFORM_VALUE:
                    expect(payload, ClaimsContract.CLAIMS_NS);
                    return new Outbound(ClaimsContract.DEFAULT_REGION,
                            transform(ClaimsContract.Stylesheet.VALUE_REQUEST, body, length, null), -1, null, null);
                case TRANSFORM_NAMESPACE:
                    expect(payload, ClaimsContract.CLAIMS_V2_NS);
                    return new Outbound(ClaimsContract.DEFAULT_REGION,
                            transform(ClaimsContract.Stylesheet.NAMESPACE_REQUEST, body, length, null), -1,
                            ClaimsContract.Stylesheet.NAMESPACE_RESPONSE, null);
                case TRANSFORM_SCHEMA: {
                    expect(payload, ClaimsContract.PARTNER_NS);
                    String context = MediationRules.contextValue(
                            scan(payload, ClaimsContract.PARTNER_NS, ClaimsContract.CONTEXT_FIELD)[0]);
                    return new Outbound(ClaimsContract.DEFAULT_REGION,
                            transform(ClaimsContract.Stylesheet.SCHEMA_REQUEST, body, length, null), -1,
                            ClaimsContract.Stylesheet.SCHEMA_RESPONSE, context);
                }
                case ROUTE_ON_BODY: {
                    expect(payload, ClaimsContract.CLAIMS_NS);
                    String region = MediationRules.route(scan(payload, ClaimsContract.CLAIMS_NS, ClaimsContract.ROUTING_FIELD)[0]);
                    return new Outbound(region, body, length, null, null);
                }
                default: {
                    expect(payload, ClaimsContract.CLAIMS_NS);
                    String[] found = scan(payload, ClaimsContract.CLAIMS_NS, "password", ClaimsContract.ROUTING_FIELD);
                    MediationRules.authorize(found[0]);
                    String region = MediationRules.route(found[1]);
                    return new Outbound(region, transform(ClaimsContract.Stylesheet.VALUE_REQUEST, body, length, null),
                            -1, null, null);
                }
            }
        }
    }

    private static void expect(XMLStreamReader payload, String namespace) throws SoapFault {
        MediationRules.expectNamespace(namespace, payload.getNamespaceURI(), payload.getLocalName());
    }

    /**
     * Reads on from the payload's start tag only until every named element (in {@code ns}) has been seen; returns
     * their texts in the order asked (null for one not found before the payload ended).
     */
    private static String[] scan(XMLStreamReader in, String ns, String... names) throws SoapFault {
        String[] found = new String[names.length];
        int missing = names.length;
        try {
            int depth = 1;
            while (depth > 0 && missing > 0) {
                int event = in.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    int i = indexOf(names, in.getLocalName());
                    if (i >= 0 && found[i] == null && ns.equals(in.getNamespaceURI())) {
                        found[i] = in.getElementText().trim();
                        missing--;
                    } else {
                        depth++;
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    depth--;
                } else if (event == XMLStreamConstants.ENTITY_REFERENCE || event == XMLStreamConstants.DTD) {
                    throw SoapFault.client("entities are not allowed");
                }
            }
        } catch (XMLStreamException | WstxLazyException e) {
            throw SoapEnvelopeReader.malformed(e);
        }
        return found;
    }

    private static int indexOf(String[] names, String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private byte[] transform(ClaimsContract.Stylesheet sheet, byte[] body, int length, String context) throws SoapFault {
        try {
            return stylesheets.transform(sheet, body, length, context);
        } catch (XMLStreamException | WstxLazyException e) {
            throw SoapEnvelopeReader.malformed(e);
        } catch (TransformerException e) {
            Throwable cause = e.getException() != null ? e.getException() : e.getCause();
            if (cause instanceof XMLStreamException || cause instanceof WstxLazyException) {
                throw SoapEnvelopeReader.malformed((Exception) cause);
            }
            // the stylesheets are fixed and tested: a failure is the input's (XSLTC wraps the parser's error)
            String message = String.valueOf(e.getMessage());
            int wrapped = message.lastIndexOf("Exception: ");
            throw SoapFault.client("malformed XML: " + (wrapped >= 0 ? message.substring(wrapped + 11) : message).trim(), e);
        }
    }

    private void callBackend(Outbound out, Response response, Callback callback, long start, boolean http2) {
        String service = ClaimsContract.serviceName(out.region());
        int length = out.length() < 0 ? out.body().length : out.length();
        client.newRequest(backendBase + out.region())
                .method(HttpMethod.POST)
                .headers(h -> h.put("SOAPAction", "\"\""))
                .body(new ByteBufferRequestContent(TEXT_XML, ByteBuffer.wrap(out.body(), 0, length)))
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
                                if (out.responseSheet() != null) {
                                    answer = transform(out.responseSheet(), answer, answer.length, out.contextValue());
                                }
                                xml(response, callback, 200, answer);
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
                            JettyAnswers.fault(response, callback, SoapFault.server("internal error: " + e.getClass().getSimpleName(), e), true);
                        } finally {
                            record(start, faulted, http2);
                        }
                    }
                });
    }

    private static boolean isXml(String mediaType) {
        return mediaType != null && mediaType.toLowerCase(java.util.Locale.ROOT).contains("xml");
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

    private void limitRequestsPerConnection(Request request, Response response) {
        ConnectionMetaData connection = request.getConnectionMetaData();
        if (settings.server().maxRequestsPerConnection() == 0 || connection.getHttpVersion() == HttpVersion.HTTP_2) {
            return;
        }
        int[] served = (int[]) connection.getAttribute(REQUESTS_ON_CONNECTION);
        if (served == null) {
            served = new int[1];
            connection.setAttribute(REQUESTS_ON_CONNECTION, served);
        }
        if (settings.server().lastRequestOnConnection(++served[0])) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
    }

    private static void xml(Response response, Callback callback, int status, byte[] body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, TEXT_XML);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}

package perflab.claims.camel;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.http.common.HttpMessage;
import perflab.claims.backend.GatewaySettings;
import perflab.claims.backend.MediationRules;
import perflab.soap.BoundedBody;
import perflab.soap.SoapEnvelopeReader;
import perflab.soap.SoapFault;

import java.io.InputStream;
import java.util.Arrays;

/**
 * The first step of every route: a POST's body read up to the size limit (bigger ones are a Client fault, not
 * a buffer), the envelope opened with the hardened StAX reader up to the payload's start tag (a DOCTYPE, an
 * entity, a non-SOAP document is refused here, before Camel parses anything), the payload's namespace checked,
 * and the client's HTTP headers dropped so none of them travels on to the back end. The body goes on as the
 * original bytes.
 */
final class Admission implements Processor {
    static final String START = "perflabStart";
    static final String SERVLET_RESPONSE = "perflabServletResponse";
    private static final String REQUESTS_ON_CONNECTION = "perflab.requestsOnConnection";

    private final GatewaySettings settings;
    private final SoapEnvelopeReader envelopes;
    private final String namespace;

    Admission(GatewaySettings settings, SoapEnvelopeReader envelopes, String namespace) {
        this.settings = settings;
        this.envelopes = envelopes;
        this.namespace = namespace;
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        exchange.setProperty(START, System.nanoTime());
        Message in = exchange.getIn();
        HttpMessage http = exchange.getIn(HttpMessage.class);
        HttpServletRequest request = http == null ? null : http.getRequest();
        if (http != null) {
            exchange.setProperty(SERVLET_RESPONSE, http.getResponse());
            limitRequestsPerConnection(request, http.getResponse());
        }
        String method = in.getHeader(Exchange.HTTP_METHOD, String.class);
        if (method != null && !"POST".equals(method)) {
            throw SoapFault.client(method + " is not supported here: POST a SOAP 1.1 envelope");
        }
        long declared = request == null ? -1 : request.getContentLengthLong();
        BoundedBody body;
        try (InputStream stream = in.getBody(InputStream.class)) {
            body = BoundedBody.read(stream == null ? InputStream.nullInputStream() : stream, declared,
                    settings.server().maxRequestBytes());
        }
        try (SoapEnvelopeReader.Envelope envelope = envelopes.open(body.array(), body.length())) {
            MediationRules.expectNamespace(namespace, envelope.reader().getNamespaceURI(), envelope.reader().getLocalName());
        }
        in.getHeaders().clear();
        in.setHeader(Exchange.HTTP_METHOD, "POST");
        in.setHeader(Exchange.CONTENT_TYPE, Reply.TEXT_XML);
        in.setHeader("SOAPAction", "\"\"");
        in.setBody(body.length() == body.array().length ? body.array() : Arrays.copyOf(body.array(), body.length()));
    }

    /**
     * --max-requests-per-connection: camel-jetty has no such setting, so the count is kept on the Jetty
     * connection (reached through the servlet request) and the last answer says Connection: close.
     */
    private void limitRequestsPerConnection(HttpServletRequest request, HttpServletResponse response) {
        if (settings.server().maxRequestsPerConnection() == 0 || request == null || response == null) {
            return;
        }
        var connection = org.eclipse.jetty.ee10.servlet.ServletContextRequest.getServletContextRequest(request)
                .getConnectionMetaData();
        int[] served = (int[]) connection.getAttribute(REQUESTS_ON_CONNECTION);
        if (served == null) {
            served = new int[1];
            connection.setAttribute(REQUESTS_ON_CONNECTION, served);
        }
        if (settings.server().lastRequestOnConnection(++served[0])) {
            response.setHeader("Connection", "close");
        }
    }
}

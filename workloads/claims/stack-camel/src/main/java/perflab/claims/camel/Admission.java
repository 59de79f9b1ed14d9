package perflab.claims.camel;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.http.common.HttpMessage;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import perflab.claims.backend.MediationRules;
import perflab.soap.BoundedBody;
import perflab.soap.SoapAdmission;
import perflab.soap.SoapEnvelopeReader;
import perflab.soap.jetty.RequestsPerConnection;

import java.io.InputStream;
import java.util.Arrays;

/**
 * The first step of every route: the admission every perflab stack applies ({@link SoapAdmission}: a POST's
 * body read up to the size limit, bigger ones a Client fault, not a buffer; the envelope opened with the hardened
 * StAX reader up to the payload's start tag, so a DOCTYPE, an entity, a non-SOAP document is refused here,
 * before Camel parses anything), the payload's namespace checked, and the client's HTTP headers dropped so none
 * of them travels on to the back end. The body goes on as the original bytes.
 */
final class Admission implements Processor {
    static final String START = "perflabStart";
    static final String SERVLET_RESPONSE = "perflabServletResponse";

    private final SoapAdmission admission;
    private final RequestsPerConnection connections;
    private final String namespace;

    Admission(SoapAdmission admission, RequestsPerConnection connections, String namespace) {
        this.admission = admission;
        this.connections = connections;
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
        long declared = request == null ? -1 : request.getContentLengthLong();
        BoundedBody body;
        try (InputStream stream = in.getBody(InputStream.class)) {
            body = admission.admit(method, stream == null ? InputStream.nullInputStream() : stream, declared);
        }
        try (SoapEnvelopeReader.Envelope envelope = admission.envelopes().open(body.array(), body.length())) {
            MediationRules.expectNamespace(namespace, envelope.reader().getNamespaceURI(), envelope.reader().getLocalName());
        }
        in.getHeaders().clear();
        in.setHeader(Exchange.HTTP_METHOD, "POST");
        in.setHeader(Exchange.CONTENT_TYPE, Reply.TEXT_XML);
        in.setHeader("SOAPAction", "\"\"");
        in.setBody(body.length() == body.array().length ? body.array() : Arrays.copyOf(body.array(), body.length()));
    }

    /**
     * --max-requests-per-connection: camel-jetty has no such setting, so the shared policy counts on the Jetty
     * connection (reached through the servlet request) and the last answer says Connection: close.
     */
    private void limitRequestsPerConnection(HttpServletRequest request, HttpServletResponse response) {
        if (!connections.limited() || request == null || response == null) {
            return;
        }
        if (connections.countAndCheckLast(ServletContextRequest.getServletContextRequest(request).getConnectionMetaData())) {
            response.setHeader("Connection", "close");
        }
    }
}

package perflab.claims.camel;

import jakarta.servlet.http.HttpServletResponse;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.xml.sax.SAXException;
import perflab.claims.backend.GatewaySettings;
import perflab.core.sut.ServerMetrics;
import perflab.soap.SoapAdmission;
import perflab.soap.SoapEnvelopeReader;
import perflab.soap.SoapFault;
import perflab.soap.SoapFaultWriter;

import javax.xml.stream.XMLStreamException;
import javax.xml.transform.TransformerException;
import javax.xml.xpath.XPathException;
import java.io.InterruptedIOException;
import java.net.ConnectException;

/**
 * Every failed exchange ends here (the routes' onException) and leaves as a SOAP fault with HTTP 500, never
 * as Camel's stack trace: perflab's own faults as they are, the back end's fault relayed, a refused or slow
 * back end as a Server fault naming it, XML that Camel's parsers reject as a Client fault (or, once the back
 * end has answered, a Server fault: then it was the answer that did not parse).
 */
final class FaultReply implements Processor {
    private final GatewaySettings settings;
    private final ServerMetrics metrics; // null when off

    FaultReply(GatewaySettings settings, ServerMetrics metrics) {
        this.settings = settings;
        this.metrics = metrics;
    }

    @Override
    public void process(Exchange exchange) {
        Throwable failure = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        byte[] body;
        boolean close = false;
        BackendAnswer.RelayedFault relayed = find(failure, BackendAnswer.RelayedFault.class);
        if (relayed != null) {
            body = relayed.envelope();
        } else {
            SoapFault fault = classify(exchange, failure);
            close = SoapAdmission.closesConnection(fault);
            body = SoapFaultWriter.toBytes(fault);
        }
        if (close && exchange.getProperty(Admission.SERVLET_RESPONSE) instanceof HttpServletResponse response) {
            response.setHeader("Connection", "close"); // the rest of an oversized body is not worth reading
        }
        Reply.answer(exchange.getMessage(), SoapFaultWriter.HTTP_STATUS, body);
        Reply.record(metrics, exchange, true);
    }

    private SoapFault classify(Exchange exchange, Throwable failure) {
        SoapFault own = find(failure, SoapFault.class);
        if (own != null) {
            return own;
        }
        String service = BackendAnswer.service(exchange);
        if (find(failure, InterruptedIOException.class) != null) { // HttpClient's response and pool timeouts
            return new SoapFault(SoapFault.Code.SERVER, "back end " + service + " did not answer within "
                    + settings.backendTimeoutMs() + " ms");
        }
        ConnectException refused = find(failure, ConnectException.class);
        if (refused != null) {
            return new SoapFault(SoapFault.Code.SERVER, "back end " + service + " is unreachable: " + refused.getMessage());
        }
        Throwable xml = xmlFailure(failure);
        if (xml != null) {
            if (Boolean.TRUE.equals(exchange.getProperty(BackendAnswer.ANSWERED))) {
                return new SoapFault(SoapFault.Code.SERVER, "the answer of back end " + service
                        + " could not be mediated: " + xml.getMessage());
            }
            return xml instanceof Exception e ? SoapEnvelopeReader.malformed(e)
                    : SoapFault.client("malformed XML: " + xml.getMessage());
        }
        Throwable root = failure;
        while (root != null && root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return SoapFault.server("internal error: " + (root == null ? "unknown" : root.getClass().getSimpleName()), failure);
    }

    /** The deepest XML parsing or transformation failure in the chain: its message says what was wrong. */
    private static Throwable xmlFailure(Throwable failure) {
        Throwable found = null;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SAXException || t instanceof XMLStreamException || t instanceof TransformerException
                    || t instanceof XPathException) {
                found = t;
            }
        }
        return found;
    }

    private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}

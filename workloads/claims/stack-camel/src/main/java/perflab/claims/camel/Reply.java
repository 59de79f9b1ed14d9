package perflab.claims.camel;

import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import perflab.core.sut.ServerMetrics;

/**
 * The last step of a mediated exchange: the answer as text/xml with status 200 and none of the back end's
 * headers (camel-jetty would otherwise copy every message header into the HTTP response), and the exchange
 * counted in the server-side metrics.
 */
final class Reply implements Processor {
    static final String TEXT_XML = "text/xml; charset=UTF-8";

    private final ServerMetrics metrics; // null when off

    Reply(ServerMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void process(Exchange exchange) {
        Message message = exchange.getMessage();
        byte[] body = message.getBody(byte[].class);
        answer(message, 200, body);
        record(metrics, exchange, false);
    }

    static void answer(Message message, int status, byte[] body) {
        message.getHeaders().clear();
        message.setHeader(Exchange.HTTP_RESPONSE_CODE, status);
        message.setHeader(Exchange.CONTENT_TYPE, TEXT_XML);
        message.setBody(body);
    }

    static void record(ServerMetrics metrics, Exchange exchange, boolean fault) {
        if (metrics != null) {
            metrics.record(System.nanoTime() - MediationRoutes.startNanos(exchange), fault, false);
        }
    }
}

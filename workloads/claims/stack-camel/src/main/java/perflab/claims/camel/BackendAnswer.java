package perflab.claims.camel;

import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import perflab.claims.contract.ClaimsContract;
import perflab.soap.SoapFault;
import perflab.soap.SoapFaultWriter;

/**
 * Judges the back end's answer after camel-http (which throws on nothing): a 200 goes on as bytes; a SOAP
 * fault (HTTP 500 with XML) is relayed to the client as it is; any other status is a Server fault.
 */
final class BackendAnswer implements Processor {
    /** Set once the back end has answered: from then on, XML that fails to mediate is the back end's, not the client's. */
    static final String ANSWERED = "perflabBackendAnswered";

    static String service(Exchange exchange) {
        return ClaimsContract.serviceName(exchange.getProperty(MediationRoutes.REGION, ClaimsContract.DEFAULT_REGION, String.class));
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        Message message = exchange.getMessage();
        Integer status = message.getHeader(Exchange.HTTP_RESPONSE_CODE, Integer.class);
        byte[] answer = message.getBody(byte[].class);
        exchange.setProperty(ANSWERED, Boolean.TRUE);
        String service = service(exchange);
        if (status != null && status == 200 && answer != null) {
            message.setBody(answer);
            return;
        }
        String contentType = message.getHeader(Exchange.CONTENT_TYPE, String.class);
        if (status != null && status == SoapFaultWriter.HTTP_STATUS && answer != null && answer.length > 0
                && contentType != null && contentType.toLowerCase(java.util.Locale.ROOT).contains("xml")) {
            throw new RelayedFault(answer);
        }
        throw new SoapFault(SoapFault.Code.SERVER, "back end " + service + " answered HTTP " + status);
    }

    /** A back end's own SOAP fault, to be handed to the client unchanged. */
    static final class RelayedFault extends Exception {
        private final byte[] envelope;

        RelayedFault(byte[] envelope) {
            super("the back end answered a SOAP fault", null, false, false);
            this.envelope = envelope;
        }

        byte[] envelope() {
            return envelope;
        }
    }
}

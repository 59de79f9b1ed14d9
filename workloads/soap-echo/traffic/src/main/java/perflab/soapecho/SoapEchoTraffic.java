package perflab.soapecho;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.Traffic;
import perflab.core.workload.TrafficOptions;
import perflab.soapecho.contract.PerfContract;

import java.util.List;

/**
 * soap-echo traffic for one operation and packet size: one request template built once, with an id slot that
 * makes each request of a client differ (echoComplexTypeDoc's {@code id}, the start of echoStringDoc's string and of
 * echoBase64Doc's base64 text), and what a correct response holds. Immutable; sessions are per client.
 */
final class SoapEchoTraffic implements Traffic {
    static final List<RequestTemplate.Header> HEADERS = List.of(
            new RequestTemplate.Header("Content-Type", "text/xml; charset=UTF-8"),
            new RequestTemplate.Header("SOAPAction", "\"\""));

    private final String operation;
    private final RequestTemplate template;
    private final ExpectedEcho expected;

    private SoapEchoTraffic(String operation, RequestTemplate template, ExpectedEcho expected) {
        this.operation = operation;
        this.template = template;
        this.expected = expected;
    }

    static SoapEchoTraffic of(TrafficOptions options) {
        int packetSize = Integer.parseInt(options.setting(SoapEchoWorkload.PAYLOAD));
        String path = options.target().getRawPath();
        if (path == null || path.isEmpty()) {
            path = PerfContract.SERVICE_PATH;
        }
        if (options.target().getRawQuery() != null) {
            path = path + "?" + options.target().getRawQuery();
        }
        String operation = options.operation();
        long seed = options.seed();
        return switch (operation) {
            case PerfContract.ECHO_COMPLEX_TYPE -> {
                List<EchoItem> items = EchoPayloads.items(packetSize, seed);
                String[] body = EchoPayloads.complexTypeRequest(items);
                yield new SoapEchoTraffic(operation,
                        RequestTemplate.withIdSlot(operation, "POST", path, HEADERS, body[0], body[1]),
                        ExpectedEcho.complexType(items));
            }
            case PerfContract.ECHO_STRING -> {
                String value = EchoPayloads.string(packetSize, seed);
                String[] body = EchoPayloads.stringRequest(value);
                yield new SoapEchoTraffic(operation,
                        RequestTemplate.withIdSlot(operation, "POST", path, HEADERS, body[0], body[1]),
                        ExpectedEcho.string(EchoPayloads.afterId(value)));
            }
            case PerfContract.ECHO_BASE64 -> {
                byte[] value = EchoPayloads.base64Bytes(seed);
                String[] body = EchoPayloads.base64Request(value);
                yield new SoapEchoTraffic(operation,
                        RequestTemplate.withIdSlot(operation, "POST", path, HEADERS, body[0], body[1]),
                        ExpectedEcho.base64(EchoPayloads.afterId(EchoPayloads.base64Text(value))));
            }
            default -> throw new IllegalArgumentException("unknown soap-echo operation '" + operation + "'; known: "
                    + PerfContract.ECHO_COMPLEX_TYPE + ", " + PerfContract.ECHO_STRING + ", " + PerfContract.ECHO_BASE64);
        };
    }

    RequestTemplate template() {
        return template;
    }

    ExpectedEcho expected() {
        return expected;
    }

    String operation() {
        return operation;
    }

    @Override
    public ClientSession newSession(ClientContext context) {
        return new SoapEchoSession(this, context.clientIndex());
    }

    @Override
    public List<String> requestKinds() {
        return List.of(operation);
    }
}

package perflab.claims;

import perflab.claims.contract.ClaimMessages;
import perflab.claims.contract.ClaimsContract;
import perflab.claims.contract.MessageSizes;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.Traffic;
import perflab.core.workload.TrafficOptions;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * claims traffic for one mediation: request templates built once (one per back-end region for the routing
 * mediations, which clients rotate through), each with what a correct answer must show. Settings from
 * the workload's settings (ClaimsWorkload): request-size, response-size (3k, 10k, 100k), routing-field-position (early, late).
 */
final class ClaimsTraffic implements Traffic {
    static final List<RequestTemplate.Header> HEADERS = List.of(
            new RequestTemplate.Header("Content-Type", "text/xml; charset=UTF-8"),
            new RequestTemplate.Header("SOAPAction", "\"\""));

    /** One kind of request and the byte markers of a correct answer. */
    record Case(RequestTemplate template, ClaimMessages.Request request, String service, List<byte[]> markers,
                ExpectedAnswer expected) {
    }

    private final String mediation;
    private final List<Case> cases;

    private ClaimsTraffic(String mediation, List<Case> cases) {
        this.mediation = mediation;
        this.cases = List.copyOf(cases);
    }

    static ClaimsTraffic of(TrafficOptions options) {
        String mediation = options.operation();
        if (!ClaimsContract.MEDIATIONS.contains(mediation)) {
            throw new IllegalArgumentException("unknown claims operation '" + mediation + "'; known: "
                    + String.join(", ", ClaimsContract.MEDIATIONS));
        }
        Map<String, String> settings = options.settings();
        String requestSize = settings.get(ClaimsWorkload.REQUEST_SIZE);
        String responseSize = settings.get(ClaimsWorkload.RESPONSE_SIZE);
        if (settings.containsKey(ClaimsWorkload.SIZES)) {
            if (requestSize != null || responseSize != null) {
                throw new IllegalArgumentException("--sizes sets both sizes: drop --request-size and --response-size");
            }
            String[] pair = settings.get(ClaimsWorkload.SIZES).split("/");
            requestSize = pair[0];
            responseSize = pair[1];
        }
        int requestBytes = ClaimsContract.parseSize("--request-size",
                requestSize != null ? requestSize : MessageSizes.DEFAULT_BYTES + "");
        int responseBytes = ClaimsContract.parseSize("--response-size",
                responseSize != null ? responseSize : MessageSizes.DEFAULT_BYTES + "");
        ClaimMessages.RoutingPosition position = ClaimMessages.RoutingPosition.parse(
                settings.getOrDefault(ClaimsWorkload.ROUTING_FIELD_POSITION, "early"));
        String path = path(options, mediation);
        List<Case> cases = new ArrayList<>();
        switch (mediation) {
            case ClaimsContract.PASSTHROUGH -> cases.add(claimsCase(mediation, path,
                    ClaimMessages.Spec.of(ClaimsContract.CREATE_CLAIM, ClaimMessages.Dialect.CLAIMS, requestBytes, responseBytes),
                    ClaimsContract.DEFAULT_REGION, options.seed()));
            case ClaimsContract.TRANSFORM_VALUE -> cases.add(claimsCase(mediation, path,
                    ClaimMessages.Spec.of(ClaimsContract.UPDATE_CLAIM, ClaimMessages.Dialect.CLAIMS, requestBytes, responseBytes),
                    ClaimsContract.DEFAULT_REGION, options.seed()));
            case ClaimsContract.TRANSFORM_NAMESPACE -> cases.add(claimsCase(mediation, path,
                    ClaimMessages.Spec.of(ClaimsContract.CHECK_COVERAGE, ClaimMessages.Dialect.CLAIMS_V2, requestBytes, responseBytes),
                    ClaimsContract.DEFAULT_REGION, options.seed()));
            case ClaimsContract.TRANSFORM_SCHEMA -> cases.add(claimsCase(mediation, path,
                    ClaimMessages.Spec.of(ClaimsContract.CREATE_CLAIM, ClaimMessages.Dialect.PARTNER, requestBytes, responseBytes),
                    ClaimsContract.DEFAULT_REGION, options.seed()));
            case ClaimsContract.ROUTE_ON_BODY -> {
                for (String region : ClaimsContract.REGIONS) {
                    cases.add(claimsCase(mediation, path, ClaimMessages.Spec.of(ClaimsContract.LIST_REPAIR_SHOPS,
                            ClaimMessages.Dialect.CLAIMS, requestBytes, responseBytes).withRegion(region, position), region, options.seed()));
                }
            }
            default -> {
                for (String region : ClaimsContract.REGIONS) {
                    cases.add(claimsCase(mediation, path, ClaimMessages.Spec.of(ClaimsContract.APPROVE_CLAIM,
                                    ClaimMessages.Dialect.CLAIMS, requestBytes, responseBytes).withRegion(region, position)
                            .withPassword(ClaimsContract.PASSWORD), region, options.seed()));
                }
            }
        }
        return new ClaimsTraffic(mediation, cases);
    }

    private static String path(TrafficOptions options, String mediation) {
        String path = options.target().getRawPath();
        if (path == null || path.isEmpty() || path.equals("/")) {
            return ClaimsContract.mediationPath(mediation);
        }
        if (path.endsWith("/" + mediation)) {
            return path;
        }
        return path.endsWith("/") ? path + mediation : path + "/" + mediation;
    }

    private static Case claimsCase(String mediation, String path, ClaimMessages.Spec spec, String region, long seed) {
        ClaimMessages.Request request = ClaimMessages.build(spec.withSeed(seed));
        String service = ClaimsContract.serviceName(region);
        List<byte[]> markers = new ArrayList<>();
        markers.add(ascii(spec.dialect() == ClaimMessages.Dialect.PARTNER ? "service=\"" + service + "\"" : "service>" + service + "<"));
        switch (mediation) {
            case ClaimsContract.TRANSFORM_VALUE -> markers.add(ascii("channel>" + ClaimsContract.VALUE_PREFIX + "web<"));
            case ClaimsContract.COMPOSITE -> {
                markers.add(ascii("channel>" + ClaimsContract.VALUE_PREFIX + "web<"));
                markers.add(ascii("credentials>absent<"));
            }
            case ClaimsContract.TRANSFORM_NAMESPACE -> {
                markers.add(ascii("namespace>" + ClaimsContract.CLAIMS_NS + "<"));
                markers.add(ascii("=\"" + ClaimsContract.CLAIMS_V2_NS + "\""));
                markers.add(ascii("policyId>" + spec.policyNumber() + "<"));
            }
            case ClaimsContract.TRANSFORM_SCHEMA -> markers.add(ascii("channel=\"" + request.channel() + "\""));
            case ClaimsContract.PASSTHROUGH -> markers.add(ascii("channel>web<"));
            default -> {
            }
        }
        String kind = mediation + (ClaimsContract.ROUTE_ON_BODY.equals(mediation) || ClaimsContract.COMPOSITE.equals(mediation)
                ? ":" + region : "");
        RequestTemplate template = RequestTemplate.withIdSlot(kind, "POST", path, HEADERS, request.before(), request.after());
        return new Case(template, request, service, markers, new ExpectedAnswer(mediation, request, service));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    List<Case> cases() {
        return cases;
    }

    String mediation() {
        return mediation;
    }

    @Override
    public ClientSession newSession(ClientContext context) {
        return new ClaimsSession(this, context.clientIndex());
    }

    @Override
    public List<String> requestKinds() {
        return cases.stream().map(c -> c.template().kind()).toList();
    }
}

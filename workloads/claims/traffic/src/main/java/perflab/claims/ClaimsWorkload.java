package perflab.claims;

import perflab.claims.contract.ClaimsContract;
import perflab.core.traffic.Traffic;
import perflab.core.workload.Companion;
import perflab.core.workload.OperationInfo;
import perflab.core.workload.ServerSide;
import perflab.core.workload.StackInfo;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The Connectivity study (seed 000): SOAP clients call an insurer's ClaimServices through ESB mediations. */
public final class ClaimsWorkload implements Workload {
    private static final List<StackInfo> STACKS = List.of(
            new StackInfo("lean", "mediation gateway on Jetty 12 core + Woodstox StAX + JDK XSLTC, back end in its own JVM",
                    "workloads/claims/stack-lean", "perflab.claims.lean.MediationGateway"),
            new StackInfo("camel", "Apache Camel 4.14 routes: camel-jetty (Jetty 12.0) in, camel-http (HttpClient 5) out, camel-xslt, XPath routing",
                    "workloads/claims/stack-camel", "perflab.claims.camel.CamelGateway"));
    private static final List<OperationInfo> OPERATIONS = List.of(
            new OperationInfo(ClaimsContract.PASSTHROUGH, "forward createClaim unchanged (the baseline)"),
            new OperationInfo(ClaimsContract.TRANSFORM_VALUE, "updateClaim; XSLT changes the channel's value in the request"),
            new OperationInfo(ClaimsContract.TRANSFORM_NAMESPACE, "checkCoverage; XSLT maps request and response between claims v2 and v1"),
            new OperationInfo(ClaimsContract.TRANSFORM_SCHEMA, "createClaim from a partner's FirstNoticeOfLoss; XSLT both ways, TrackingRef via context"),
            new OperationInfo(ClaimsContract.ROUTE_ON_BODY, "listRepairShops routed to the north, south or west ClaimServices by the region field"),
            new OperationInfo(ClaimsContract.COMPOSITE, "approveClaim: password check, route on region, value transform"));

    static final String REQUEST_SIZE = "request-size";
    static final String RESPONSE_SIZE = "response-size";
    static final String SIZES = "sizes";
    static final String ROUTING_FIELD_POSITION = "routing-field-position";
    static final String BACKEND = "backend";
    static final String BACKEND_TIMEOUT = "backend-timeout";
    static final String BACKEND_JVM = "backend-jvm";
    /** The back end's Maven module and main class: a JVM companion of the gateway. */
    static final String BACKEND_MODULE = "workloads/claims/backend";
    static final String BACKEND_MAIN = "perflab.claims.backend.ClaimServicesBackend";

    private static final List<WorkloadSetting> SETTINGS = List.of(
            size(REQUEST_SIZE, "Request message size (3k, 10k, 100k). Default: 3k."),
            size(RESPONSE_SIZE, "Response message size (3k, 10k, 100k). Default: 3k."),
            new WorkloadSetting(SIZES, "REQ/RESP", null, "Request and response sizes in one value, as the study names "
                    + "them ({3k,10k} is 3k/10k); replaces --request-size and --response-size.",
                    WorkloadSetting.Use.TRAFFIC, true, ClaimsWorkload::sizes),
            WorkloadSetting.choice(ROUTING_FIELD_POSITION, "early", "Where the routing field sits in a request: early "
                    + "(where the schema puts it) or late (after the claim's bulk: the worst case for routing).",
                    "early", "late").asDimension(),
            WorkloadSetting.choice(BACKEND, "separate-jvm", "The ClaimServices back end in its own JVM, which perflab "
                    + "starts and monitors as process 'backend' (separate-jvm), or inside the gateway's (same-jvm).",
                    "separate-jvm", "same-jvm").forServer().asDimension(),
            WorkloadSetting.duration(BACKEND_TIMEOUT, null, Duration.ofMillis(1), Duration.ofSeconds(600),
                    "A back-end call slower than this gets the client a Server fault. Default: 10s.").forServer().asDimension(),
            WorkloadSetting.jvmFlags(BACKEND_JVM, ClaimsContract.DEFAULT_BACKEND_JVM, "JVM flags of the back end's "
                    + "JVM (separate-jvm), \"\" for none; the run's --heap and --gc are the gateway's only. Default: "
                    + ClaimsContract.DEFAULT_BACKEND_JVM + " (a back end that warms up the same way every run; "
                    + "docs/workloads/claims.md)."));

    @Override
    public List<WorkloadSetting> settings() {
        return SETTINGS;
    }

    /**
     * separate-jvm: the back end is a companion perflab starts first, and the gateway calls it by URL; same-jvm:
     * the gateway starts it inside its own JVM.
     */
    @Override
    public ServerSide serverSide(Map<String, String> settings) {
        Map<String, String> gateway = new LinkedHashMap<>();
        if (settings.containsKey(BACKEND_TIMEOUT)) {
            gateway.put(BACKEND_TIMEOUT, settings.get(BACKEND_TIMEOUT));
        }
        if ("same-jvm".equals(settings.get(BACKEND))) {
            gateway.put(BACKEND, "same-jvm");
            return ServerSide.sutOnly(gateway);
        }
        gateway.put("backend-url", "http://127.0.0.1:{backend.port}");
        String flags = settings.getOrDefault(BACKEND_JVM, "");
        Companion backend = Companion.jvm(BACKEND, BACKEND_MODULE, BACKEND_MAIN,
                flags.isBlank() ? List.of() : Arrays.asList(flags.split(" ")), List.of(), Companion.Start.BEFORE_SUT);
        return new ServerSide(List.of(backend), gateway);
    }

    private static WorkloadSetting size(String name, String help) {
        return new WorkloadSetting(name, "SIZE", null, help, WorkloadSetting.Use.TRAFFIC, true, v -> {
            ClaimsContract.parseSize("--" + name, v);
            return v.toLowerCase(Locale.ROOT);
        });
    }

    /** REQ/RESP, each a size the contract accepts. */
    private static String sizes(String value) {
        String[] pair = value.split("/", -1);
        if (pair.length != 2 || pair[0].isBlank() || pair[1].isBlank()) {
            throw new IllegalArgumentException("--sizes: '" + value + "' is not REQUEST/RESPONSE, e.g. 3k/10k");
        }
        ClaimsContract.parseSize("--sizes", pair[0]);
        ClaimsContract.parseSize("--sizes", pair[1]);
        return value.trim().toLowerCase(Locale.ROOT);
    }

    @Override
    public String name() {
        return "claims";
    }

    @Override
    public String description() {
        return "ESB mediations (passthrough, XSLT transforms, route on body, composite) in front of ClaimServices web services";
    }

    @Override
    public List<StackInfo> stacks() {
        return STACKS;
    }

    @Override
    public List<OperationInfo> operations() {
        return OPERATIONS;
    }

    @Override
    public String servicePath() {
        return ClaimsContract.GATEWAY_PATH;
    }

    @Override
    public Traffic traffic(TrafficOptions options) {
        return ClaimsTraffic.of(options);
    }
}

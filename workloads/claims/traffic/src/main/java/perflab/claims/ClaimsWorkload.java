package perflab.claims;

import perflab.claims.contract.ClaimsContract;
import perflab.core.traffic.Traffic;
import perflab.core.workload.OperationInfo;
import perflab.core.workload.StackInfo;
import perflab.core.workload.Workload;
import perflab.core.workload.TrafficOptions;

import java.util.List;

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

package perflab.claims.lean;

import perflab.claims.testkit.GatewayProcessContractIT;

/** The packaged lean gateway and its back-end JVM live and die as perflab expects (testkit). */
class GatewayProcessIT extends GatewayProcessContractIT {
    @Override
    protected Class<?> gatewayMain() {
        return MediationGateway.class;
    }
}

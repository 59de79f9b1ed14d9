package perflab.claims.camel;

import perflab.claims.testkit.GatewayProcessContractIT;

/** The packaged camel gateway and its back-end JVM live and die as perflab expects (testkit). */
class GatewayProcessIT extends GatewayProcessContractIT {
    @Override
    protected Class<?> gatewayMain() {
        return CamelGateway.class;
    }
}

package perflab.claims.camel;

import perflab.claims.testkit.GatewayContractTest;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;

/** The camel gateway passes the same claims gateway contract as the lean one (testkit). */
class CamelGatewayTest extends GatewayContractTest {
    @Override
    protected StartedServer start(SutArgs args) throws Exception {
        return CamelGateway.start(args);
    }
}

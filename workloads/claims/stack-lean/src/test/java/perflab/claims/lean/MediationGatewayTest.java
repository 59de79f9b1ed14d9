package perflab.claims.lean;

import perflab.claims.testkit.GatewayContractTest;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;

/** The lean gateway passes the claims gateway contract (testkit). */
class MediationGatewayTest extends GatewayContractTest {
    @Override
    protected StartedServer start(SutArgs args) throws Exception {
        return MediationGateway.start(args);
    }
}

package perflab.soapecho.lean;

import perflab.soapecho.testkit.InProcessStack;
import perflab.soapecho.testkit.SoapEchoH2cTest;

/** The lean stack with --http h2c (Jetty's h2c factory, Upgrade taken only without a body) and with --http http1. */
class LeanH2cTest extends SoapEchoH2cTest {
    @Override
    protected InProcessStack stack() {
        return LeanSoapEchoServer::start;
    }
}

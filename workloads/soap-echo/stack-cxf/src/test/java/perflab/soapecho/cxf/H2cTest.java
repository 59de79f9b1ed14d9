package perflab.soapecho.cxf;

import perflab.soapecho.testkit.InProcessStack;
import perflab.soapecho.testkit.SoapEchoH2cTest;

/**
 * The cxf stack with --http h2c (CXF's engine adds its h2c factory when the bus property says so) and with
 * --http http1 (the stack tells CXF's engine not to add it).
 */
class H2cTest extends SoapEchoH2cTest {
    @Override
    protected InProcessStack stack() {
        return CxfSoapEchoServer::start;
    }
}

package perflab.soapecho.cxf;

import jakarta.jws.WebService;
import jakarta.xml.ws.Holder;
import perflab.soapecho.contract.PerfContract;
import perflab.soapecho.cxf.generated.DocPortType;
import perflab.soapecho.cxf.generated.types.NestedComplexTypeSeq;

/**
 * The service as CXF's own performance server answers it: every operation returns what JAXB bound from the
 * request, and echoComplexTypeDoc sets {@code idout} to the request's {@code id}. The work is CXF's: parse,
 * bind to JAXB objects, marshal them again.
 */
@WebService(serviceName = PerfContract.SERVICE, portName = PerfContract.PORT, targetNamespace = PerfContract.NAMESPACE,
        endpointInterface = "perflab.soapecho.cxf.generated.DocPortType",
        wsdlLocation = CxfSoapEchoServer.WSDL_LOCATION)
public class PerfEchoService implements DocPortType {
    @Override
    public String echoStringDoc(String in) {
        return in;
    }

    @Override
    public byte[] echoBase64Doc(byte[] in) {
        return in;
    }

    @Override
    public NestedComplexTypeSeq echoComplexTypeDoc(NestedComplexTypeSeq in, int id, Holder<Integer> idout) {
        idout.value = id;
        return in;
    }
}

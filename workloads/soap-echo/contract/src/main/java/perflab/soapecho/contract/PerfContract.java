package perflab.soapecho.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The facts of the soap-echo contract (Apache CXF's performance harness), shared by the traffic model and
 * every stack: namespaces, names, the default address and the WSDL/schema resources beside this class.
 */
public final class PerfContract {
    public static final String NAMESPACE = "http://cxf.apache.org/cxf/performance";
    public static final String TYPES_NAMESPACE = "http://cxf.apache.org/cxf/performance/types";
    public static final String SOAP11_ENVELOPE_NAMESPACE = "http://schemas.xmlsoap.org/soap/envelope/";

    public static final String SERVICE = "PerfService";
    public static final String PORT = "SoapHttpDocLitPort";
    public static final String PORT_TYPE = "DocPortType";
    public static final String SERVICE_PATH = "/cxf-benchmark-soapdoclit/services/SoapHttpDocLitPort";
    /** The soap:address in perf.wsdl; servers replace it with their real address when serving ?wsdl. */
    public static final String DEFAULT_ADDRESS = "http://localhost:8080" + SERVICE_PATH;

    public static final String ECHO_STRING = "echoStringDoc";
    public static final String ECHO_BASE64 = "echoBase64Doc";
    public static final String ECHO_COMPLEX_TYPE = "echoComplexTypeDoc";
    /** Response elements are the request element's name plus this suffix. */
    public static final String RESPONSE_SUFFIX = "Response";

    /** Bytes in one item's varBase64Binary and varHexBinary. */
    public static final int ITEM_BINARY_BYTES = 256;
    /** Characters per packet-size unit of echoStringDoc. */
    public static final int STRING_CHARS_PER_PACKET = 1024;
    /** Bytes echoBase64Doc sends, whatever the packet size. */
    public static final int BASE64_BYTES = 1024;

    public static final String WSDL_RESOURCE = "perf.wsdl";
    public static final String SCHEMA_RESOURCE = "perf-types.xsd";

    private PerfContract() {
    }

    /** The WSDL as written, with {@link #DEFAULT_ADDRESS} as its soap:address. */
    public static String wsdl() {
        return resource(WSDL_RESOURCE);
    }

    /** The message schema. */
    public static String schema() {
        return resource(SCHEMA_RESOURCE);
    }

    private static String resource(String name) {
        try (InputStream in = PerfContract.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("contract resource " + name + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

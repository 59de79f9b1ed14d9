package perflab.soapecho.webapp;

import jakarta.servlet.ServletConfig;
import org.apache.cxf.BusFactory;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;
import org.apache.cxf.staxutils.StaxUtils;
import org.apache.cxf.transport.servlet.CXFNonSpringServlet;
import perflab.soapecho.contract.PerfContract;
import perflab.soapecho.cxf.PerfEchoService;
import perflab.soapecho.cxf.generated.DocPortType;

import javax.xml.namespace.QName;
import java.util.Map;

/**
 * soap-echo's CXF service in a servlet container, as a user deploys CXF without Spring: CXF's servlet publishes the
 * cxf stack's endpoint (the same service bean, WSDL and parser limits) under the servlet's mapping, so the service
 * answers at {@code /cxf-benchmark-soapdoclit/services/SoapHttpDocLitPort}, the path soap-echo's traffic sends to.
 * The container's connector, threads and keep-alive are what a server file tunes.
 */
public class SoapEchoServlet extends CXFNonSpringServlet {
    /** The largest request the service parses (XML characters), as perflab's stacks default to (--max-request-bytes). */
    static final int MAX_REQUEST_CHARS = 10 * 1024 * 1024;

    @Override
    protected void loadBus(ServletConfig config) {
        super.loadBus(config);
        BusFactory.setDefaultBus(getBus());
        JaxWsServerFactoryBean factory = new JaxWsServerFactoryBean();
        factory.setBus(getBus());
        factory.setServiceClass(DocPortType.class);
        factory.setServiceBean(new PerfEchoService());
        factory.setWsdlLocation("classpath:perflab/soapecho/contract/" + PerfContract.WSDL_RESOURCE);
        factory.setServiceName(new QName(PerfContract.NAMESPACE, PerfContract.SERVICE));
        factory.setEndpointName(new QName(PerfContract.NAMESPACE, PerfContract.PORT));
        // relative: CXF's servlet transport serves it under this servlet's mapping (/services/*)
        factory.setAddress(PerfContract.SERVICE_PATH.substring(PerfContract.SERVICE_PATH.lastIndexOf('/')));
        factory.setProperties(Map.of(
                StaxUtils.MAX_XML_CHARACTERS, (long) MAX_REQUEST_CHARS,
                StaxUtils.MAX_TEXT_LENGTH, MAX_REQUEST_CHARS));
        factory.create();
    }
}

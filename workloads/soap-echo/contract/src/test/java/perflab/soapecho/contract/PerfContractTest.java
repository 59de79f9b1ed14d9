package perflab.soapecho.contract;

import org.junit.jupiter.api.Test;

import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerfContractTest {
    @Test
    void wsdlCarriesTheDefaultAddressOnce() {
        String wsdl = PerfContract.wsdl();
        assertEquals(wsdl.indexOf(PerfContract.DEFAULT_ADDRESS), wsdl.lastIndexOf(PerfContract.DEFAULT_ADDRESS));
        assertTrue(wsdl.contains("name=\"" + PerfContract.SERVICE + "\""));
        assertTrue(wsdl.contains("name=\"" + PerfContract.PORT + "\""));
    }

    @Test
    void schemaCompiles() throws Exception {
        SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(new StreamSource(new StringReader(PerfContract.schema())));
    }
}

package perflab.soap;

import org.junit.jupiter.api.Test;

import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamReader;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SoapEnvelopeReaderTest {
    private final SoapEnvelopeReader envelopes =
            new SoapEnvelopeReader(HardenedXml.inputFactory(HardenedXml.Limits.forDocumentsUpTo(1 << 20)));

    private SoapEnvelopeReader.Envelope open(String xml) throws SoapFault {
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        return envelopes.open(bytes, bytes.length);
    }

    @Test
    void positionsOnTheBodysFirstChildAndFinishes() throws Exception {
        String xml = "<?xml version=\"1.0\"?>\n<s:Envelope xmlns:s=\"" + SoapEnvelopeReader.SOAP11_NS + "\">"
                + "<s:Header><h:Trace xmlns:h=\"urn:h\">text<x/></h:Trace></s:Header>\n"
                + "<s:Body><p:echo xmlns:p=\"urn:p\"><p:in>hi</p:in></p:echo></s:Body></s:Envelope>";
        try (SoapEnvelopeReader.Envelope envelope = open(xml)) {
            assertEquals(new QName("urn:p", "echo"), envelope.payloadName());
            XMLStreamReader reader = envelope.reader();
            reader.nextTag();
            assertEquals("hi", reader.getElementText());
            reader.nextTag(); // </p:echo>
            envelope.finish();
        }
    }

    @Test
    void wrongEnvelopeNamespaceIsAVersionMismatch() {
        SoapFault fault = assertThrows(SoapFault.class,
                () -> open("<e:Envelope xmlns:e=\"urn:wrong\"><e:Body><x/></e:Body></e:Envelope>"));
        assertEquals(SoapFault.Code.VERSION_MISMATCH, fault.code());
    }

    @Test
    void notAnEnvelopeIsAClientFault() {
        SoapFault fault = assertThrows(SoapFault.class, () -> open("<hello/>"));
        assertEquals(SoapFault.Code.CLIENT, fault.code());
    }

    @Test
    void malformedXmlIsAClientFault() {
        SoapFault fault = assertThrows(SoapFault.class,
                () -> open("<s:Envelope xmlns:s=\"" + SoapEnvelopeReader.SOAP11_NS + "\"><s:Body></s:Envelope>"));
        assertEquals(SoapFault.Code.CLIENT, fault.code());
        assertTrue(fault.reason().startsWith("malformed XML"), fault.reason());
    }

    @Test
    void doctypeIsRefused() {
        SoapFault fault = assertThrows(SoapFault.class, () -> open("<!DOCTYPE s:Envelope [<!ENTITY a \"b\">]>"
                + "<s:Envelope xmlns:s=\"" + SoapEnvelopeReader.SOAP11_NS + "\"><s:Body><x>&a;</x></s:Body></s:Envelope>"));
        assertTrue(fault.reason().contains("DOCTYPE"), fault.reason());
    }

    @Test
    void mustUnderstandHeaderIsRefused() {
        SoapFault fault = assertThrows(SoapFault.class, () -> open("<s:Envelope xmlns:s=\"" + SoapEnvelopeReader.SOAP11_NS
                + "\"><s:Header><h:Sec xmlns:h=\"urn:h\" s:mustUnderstand=\"1\"/></s:Header><s:Body><x/></s:Body></s:Envelope>"));
        assertEquals(SoapFault.Code.MUST_UNDERSTAND, fault.code());
    }

    @Test
    void emptyBodyIsAClientFault() {
        SoapFault fault = assertThrows(SoapFault.class,
                () -> open("<s:Envelope xmlns:s=\"" + SoapEnvelopeReader.SOAP11_NS + "\"><s:Body/></s:Envelope>"));
        assertTrue(fault.reason().contains("empty"), fault.reason());
    }

    @Test
    void trailingElementsAfterThePayloadAreRefused() throws Exception {
        try (SoapEnvelopeReader.Envelope envelope = open("<s:Envelope xmlns:s=\"" + SoapEnvelopeReader.SOAP11_NS
                + "\"><s:Body><x/><y/></s:Body></s:Envelope>")) {
            envelope.reader().next(); // </x>
            assertThrows(SoapFault.class, envelope::finish);
        }
    }
}

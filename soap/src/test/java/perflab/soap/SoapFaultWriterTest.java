package perflab.soap;

import org.junit.jupiter.api.Test;

import javax.xml.stream.XMLStreamReader;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SoapFaultWriterTest {
    @Test
    void faultIsWellFormedAndEscaped() throws Exception {
        String reason = "bad <input> & \"quotes\" \u0001 \ud83d\ude00 ]]>";
        byte[] bytes = SoapFaultWriter.toBytes(SoapFault.client(reason));
        String xml = new String(bytes, StandardCharsets.UTF_8);
        assertTrue(xml.contains("<faultcode>soap:Client</faultcode>"), xml);

        SoapEnvelopeReader envelopes = new SoapEnvelopeReader(HardenedXml.inputFactory(HardenedXml.Limits.forDocumentsUpTo(1 << 16)));
        try (SoapEnvelopeReader.Envelope envelope = envelopes.open(bytes, bytes.length)) {
            assertEquals("Fault", envelope.payloadName().getLocalPart());
            XMLStreamReader reader = envelope.reader();
            reader.nextTag();
            assertEquals("soap:Client", reader.getElementText());
            reader.nextTag();
            assertEquals("bad <input> & \"quotes\" ? \ud83d\ude00 ]]>", reader.getElementText());
            reader.nextTag();
            envelope.finish();
        }
    }

    @Test
    void longReasonsAreCut() {
        String xml = new String(SoapFaultWriter.toBytes(SoapFault.Code.SERVER, "x".repeat(100_000)), StandardCharsets.UTF_8);
        assertTrue(xml.length() < 2000, "fault is " + xml.length() + " chars");
        assertTrue(xml.contains("soap:Server"));
    }
}

package perflab.soapecho.lean;

import com.ctc.wstx.exc.WstxLazyException;
import org.codehaus.stax2.XMLStreamReader2;
import org.codehaus.stax2.typed.TypedXMLStreamException;
import perflab.soap.HardenedXml;
import perflab.soap.SoapEnvelopeReader;
import perflab.soap.SoapFault;
import perflab.soapecho.contract.PerfContract;

import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamException;

/**
 * The soap-echo service: opens the envelope, dispatches on the payload element, binds the whole request to
 * objects and serialises the response from them. Thread-safe; factories are shared.
 */
final class PerfEchoService {
    private final SoapEnvelopeReader envelopes;
    private final PerfMessageWriter writer;

    /** @param envelopes the server's hardened reader ({@link perflab.soap.SoapAdmission#envelopes()}) */
    PerfEchoService(SoapEnvelopeReader envelopes) {
        this.envelopes = envelopes;
        this.writer = new PerfMessageWriter(HardenedXml.outputFactory());
    }

    /** Answers one request envelope held in {@code body[0, length)}. */
    ResponseBuffer invoke(byte[] body, int length) throws SoapFault {
        ResponseBuffer out = new ResponseBuffer(Math.max(512, length + length / 8));
        try (SoapEnvelopeReader.Envelope envelope = envelopes.open(body, length)) {
            XMLStreamReader2 r = (XMLStreamReader2) envelope.reader();
            QName payload = envelope.payloadName();
            if (!PerfContract.TYPES_NAMESPACE.equals(payload.getNamespaceURI())) {
                throw SoapFault.client("unknown operation " + payload + ": payload elements are in namespace "
                        + PerfContract.TYPES_NAMESPACE);
            }
            switch (payload.getLocalPart()) {
                case PerfContract.ECHO_COMPLEX_TYPE -> {
                    PerfMessageReader.ComplexTypeRequest request = PerfMessageReader.readEchoComplexType(r);
                    envelope.finish();
                    writer.writeEchoComplexType(out, request.items(), request.id());
                }
                case PerfContract.ECHO_STRING -> {
                    String in = PerfMessageReader.readEchoString(r);
                    envelope.finish();
                    writer.writeEchoString(out, in);
                }
                case PerfContract.ECHO_BASE64 -> {
                    byte[] in = PerfMessageReader.readEchoBase64(r);
                    envelope.finish();
                    writer.writeEchoBase64(out, in);
                }
                default -> throw SoapFault.client("unknown operation " + payload.getLocalPart() + "; this port has "
                        + PerfContract.ECHO_COMPLEX_TYPE + ", " + PerfContract.ECHO_STRING + " and " + PerfContract.ECHO_BASE64);
            }
            return out;
        } catch (TypedXMLStreamException e) {
            throw PerfMessageReader.invalidValue(e);
        } catch (XMLStreamException | WstxLazyException e) {
            throw SoapEnvelopeReader.malformed(e);
        }
    }
}

package perflab.soapecho.lean;

import org.codehaus.stax2.XMLStreamWriter2;
import org.codehaus.stax2.typed.Base64Variant;
import org.codehaus.stax2.typed.Base64Variants;
import perflab.soap.SoapEnvelopeReader;
import perflab.soapecho.contract.PerfContract;

import javax.xml.namespace.QName;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import java.io.OutputStream;
import java.util.List;

/**
 * Serialises soap-echo responses from bound objects (never from request bytes), as a JAX-WS stack does.
 * Types-namespace elements carry the prefix {@code ns2} and no default namespace is declared, so an
 * unprefixed xs:QName value correctly means "no namespace".
 */
final class PerfMessageWriter {
    private static final String SOAP = SoapEnvelopeReader.SOAP11_NS;
    private static final String NS = PerfContract.TYPES_NAMESPACE;
    private static final String P = "ns2";
    /** Base64 on one line, as JAX-WS stacks write it (Woodstox's default breaks lines every 76 characters). */
    private static final Base64Variant BASE64 = Base64Variants.MIME_NO_LINEFEEDS;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final XMLOutputFactory factory;

    PerfMessageWriter(XMLOutputFactory factory) {
        this.factory = factory;
    }

    void writeEchoString(OutputStream out, String value) throws XMLStreamException {
        XMLStreamWriter2 w = open(out, PerfContract.ECHO_STRING);
        w.writeStartElement(P, "out", NS);
        w.writeCharacters(value);
        w.writeEndElement();
        close(w);
    }

    void writeEchoBase64(OutputStream out, byte[] value) throws XMLStreamException {
        XMLStreamWriter2 w = open(out, PerfContract.ECHO_BASE64);
        w.writeStartElement(P, "out", NS);
        w.writeBinary(BASE64, value, 0, value.length);
        w.writeEndElement();
        close(w);
    }

    void writeEchoComplexType(OutputStream out, List<NestedComplexType> items, int id) throws XMLStreamException {
        XMLStreamWriter2 w = open(out, PerfContract.ECHO_COMPLEX_TYPE);
        w.writeStartElement(P, "return", NS);
        for (NestedComplexType item : items) {
            writeItem(w, item);
        }
        w.writeEndElement();
        w.writeStartElement(P, "idout", NS);
        w.writeInt(id);
        w.writeEndElement();
        close(w);
    }

    private static void writeItem(XMLStreamWriter2 w, NestedComplexType item) throws XMLStreamException {
        w.writeStartElement(P, "item", NS);
        element(w, "varString", item.varString());
        w.writeStartElement(P, "varUByte", NS);
        w.writeInt(item.varUByte());
        w.writeEndElement();
        element(w, "varUnsignedLong", Long.toUnsignedString(item.varUnsignedLong()));
        w.writeStartElement(P, "varFloat", NS);
        w.writeFloat(item.varFloat());
        w.writeEndElement();
        writeQName(w, item.varQName());
        w.writeStartElement(P, "varBase64Binary", NS);
        w.writeBinary(BASE64, item.varBase64Binary(), 0, item.varBase64Binary().length);
        w.writeEndElement();
        w.writeStartElement(P, "varHexBinary", NS);
        char[] hex = toHex(item.varHexBinary());
        w.writeCharacters(hex, 0, hex.length);
        w.writeEndElement();
        writeStruct(w, item.varStruct());
        element(w, "varEnum", item.varEnum().name());
        w.writeEndElement();
    }

    private static void writeStruct(XMLStreamWriter2 w, SimpleStruct s) throws XMLStreamException {
        w.writeStartElement(P, "varStruct", NS);
        if (s.varAttrString() != null) {
            w.writeAttribute("varAttrString", s.varAttrString());
        }
        w.writeStartElement(P, "varFloat", NS);
        w.writeFloat(s.varFloat());
        w.writeEndElement();
        w.writeStartElement(P, "varShort", NS);
        w.writeInt(s.varShort());
        w.writeEndElement();
        element(w, "varString", s.varString());
        w.writeStartElement(P, "varByte", NS);
        w.writeInt(s.varByte());
        w.writeEndElement();
        element(w, "varDecimal", s.varDecimal().toPlainString());
        w.writeStartElement(P, "varDouble", NS);
        w.writeDouble(s.varDouble());
        w.writeEndElement();
        element(w, "varDateTime", s.varDateTime().toXMLFormat());
        w.writeEndElement();
    }

    private static void writeQName(XMLStreamWriter2 w, QName name) throws XMLStreamException {
        w.writeStartElement(P, "varQName", NS);
        String ns = name.getNamespaceURI();
        if (ns.isEmpty()) {
            w.writeCharacters(name.getLocalPart());
        } else if (NS.equals(ns)) {
            w.writeCharacters(P + ":" + name.getLocalPart());
        } else {
            w.writeNamespace("q", ns);
            w.writeCharacters("q:" + name.getLocalPart());
        }
        w.writeEndElement();
    }

    private static void element(XMLStreamWriter2 w, String name, String text) throws XMLStreamException {
        w.writeStartElement(P, name, NS);
        w.writeCharacters(text);
        w.writeEndElement();
    }

    static char[] toHex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xF];
            out[2 * i + 1] = HEX[bytes[i] & 0xF];
        }
        return out;
    }

    private XMLStreamWriter2 open(OutputStream out, String operation) throws XMLStreamException {
        XMLStreamWriter2 w = (XMLStreamWriter2) factory.createXMLStreamWriter(out, "UTF-8");
        w.writeStartElement("soap", "Envelope", SOAP);
        w.writeNamespace("soap", SOAP);
        w.writeStartElement("soap", "Body", SOAP);
        w.writeStartElement(P, operation + PerfContract.RESPONSE_SUFFIX, NS);
        w.writeNamespace(P, NS);
        return w;
    }

    private static void close(XMLStreamWriter2 w) throws XMLStreamException {
        w.writeEndElement();
        w.writeEndElement();
        w.writeEndElement();
        w.writeEndDocument();
        w.close();
    }
}

package perflab.soapecho.lean;

import org.codehaus.stax2.XMLStreamReader2;
import org.codehaus.stax2.typed.TypedXMLStreamException;
import perflab.soap.SoapFault;
import perflab.soapecho.contract.PerfContract;

import javax.xml.datatype.DatatypeConfigurationException;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Binds the soap-echo request payloads to objects with Woodstox's typed access, checking every element
 * against the schema's sequence: the same work a JAX-WS data binding does, without reflection.
 * Each method starts on the payload's start tag and ends on its end tag.
 */
final class PerfMessageReader {
    private static final String NS = PerfContract.TYPES_NAMESPACE;
    private static final DatatypeFactory DATATYPES;

    static {
        try {
            DATATYPES = DatatypeFactory.newInstance();
        } catch (DatatypeConfigurationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private PerfMessageReader() {
    }

    record ComplexTypeRequest(List<NestedComplexType> items, int id) {
    }

    static String readEchoString(XMLStreamReader2 r) throws XMLStreamException, SoapFault {
        expectStart(r, "in");
        String in = r.getElementText();
        expectEnd(r);
        return in;
    }

    static byte[] readEchoBase64(XMLStreamReader2 r) throws XMLStreamException, SoapFault {
        expectStart(r, "in");
        byte[] in = r.getElementAsBinary();
        expectEnd(r);
        return in;
    }

    static ComplexTypeRequest readEchoComplexType(XMLStreamReader2 r) throws XMLStreamException, SoapFault {
        expectStart(r, "in");
        List<NestedComplexType> items = new ArrayList<>();
        while (r.nextTag() == XMLStreamConstants.START_ELEMENT) {
            requireName(r, "item");
            items.add(readItem(r));
        }
        expectStart(r, "id");
        int id = r.getElementAsInt();
        expectEnd(r);
        return new ComplexTypeRequest(items, id);
    }

    private static NestedComplexType readItem(XMLStreamReader2 r) throws XMLStreamException, SoapFault {
        expectStart(r, "varString");
        String varString = r.getElementText();
        expectStart(r, "varUByte");
        int uByte = r.getElementAsInt();
        if (uByte < 0 || uByte > 255) {
            throw SoapFault.client("varUByte out of range: " + uByte);
        }
        expectStart(r, "varUnsignedLong");
        long unsignedLong = parseUnsignedLong(r.getElementText());
        expectStart(r, "varFloat");
        float varFloat = r.getElementAsFloat();
        expectStart(r, "varQName");
        javax.xml.namespace.QName varQName = r.getElementAsQName();
        expectStart(r, "varBase64Binary");
        byte[] base64 = r.getElementAsBinary();
        expectStart(r, "varHexBinary");
        byte[] hex = parseHex(r.getElementText());
        expectStart(r, "varStruct");
        SimpleStruct struct = readStruct(r);
        expectStart(r, "varEnum");
        Colour colour = parseColour(r.getElementText());
        expectEnd(r);
        return new NestedComplexType(varString, (short) uByte, unsignedLong, varFloat, varQName, base64, hex,
                struct, colour);
    }

    private static SimpleStruct readStruct(XMLStreamReader2 r) throws XMLStreamException, SoapFault {
        String attr = r.getAttributeValue(null, "varAttrString");
        expectStart(r, "varFloat");
        float varFloat = r.getElementAsFloat();
        expectStart(r, "varShort");
        int varShort = r.getElementAsInt();
        if (varShort < Short.MIN_VALUE || varShort > Short.MAX_VALUE) {
            throw SoapFault.client("varShort out of range: " + varShort);
        }
        expectStart(r, "varString");
        String varString = r.getElementText();
        expectStart(r, "varByte");
        int varByte = r.getElementAsInt();
        if (varByte < Byte.MIN_VALUE || varByte > Byte.MAX_VALUE) {
            throw SoapFault.client("varByte out of range: " + varByte);
        }
        expectStart(r, "varDecimal");
        BigDecimal varDecimal = r.getElementAsDecimal();
        expectStart(r, "varDouble");
        double varDouble = r.getElementAsDouble();
        expectStart(r, "varDateTime");
        XMLGregorianCalendar dateTime = parseDateTime(r.getElementText());
        expectEnd(r);
        return new SimpleStruct(varFloat, (short) varShort, varString, (byte) varByte, varDecimal, varDouble, dateTime, attr);
    }

    private static void expectStart(XMLStreamReader2 r, String localName) throws XMLStreamException, SoapFault {
        if (r.nextTag() != XMLStreamConstants.START_ELEMENT) {
            throw SoapFault.client("expected element " + localName + " but found </" + r.getLocalName() + ">");
        }
        requireName(r, localName);
    }

    private static void requireName(XMLStreamReader2 r, String localName) throws SoapFault {
        if (!localName.equals(r.getLocalName()) || !NS.equals(r.getNamespaceURI())) {
            throw SoapFault.client("expected element {" + NS + "}" + localName + " but found " + r.getName());
        }
    }

    private static void expectEnd(XMLStreamReader2 r) throws XMLStreamException, SoapFault {
        if (r.nextTag() != XMLStreamConstants.END_ELEMENT) {
            throw SoapFault.client("unexpected element " + r.getName());
        }
    }

    private static long parseUnsignedLong(String text) throws SoapFault {
        String t = text.trim();
        try {
            if (t.startsWith("+")) {
                t = t.substring(1);
            }
            return Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw SoapFault.client("varUnsignedLong is not an xs:unsignedLong: '" + abbreviate(t) + "'");
        }
    }

    static byte[] parseHex(String text) throws SoapFault {
        String t = text.trim();
        if ((t.length() & 1) != 0) {
            throw SoapFault.client("xs:hexBinary needs an even number of digits, got " + t.length());
        }
        byte[] out = new byte[t.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(t.charAt(2 * i), 16);
            int lo = Character.digit(t.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw SoapFault.client("invalid xs:hexBinary digit near position " + (2 * i));
            }
            out[i] = (byte) ((hi << 4) | lo);
        }
        return out;
    }

    private static XMLGregorianCalendar parseDateTime(String text) throws SoapFault {
        try {
            return DATATYPES.newXMLGregorianCalendar(text.trim());
        } catch (IllegalArgumentException e) {
            throw SoapFault.client("varDateTime is not an xs:dateTime: '" + abbreviate(text) + "'");
        }
    }

    private static Colour parseColour(String text) throws SoapFault {
        return switch (text.trim()) {
            case "RED" -> Colour.RED;
            case "GREEN" -> Colour.GREEN;
            case "BLUE" -> Colour.BLUE;
            default -> throw SoapFault.client("varEnum must be RED, GREEN or BLUE, got '" + abbreviate(text) + "'");
        };
    }

    /** Typed-access failures are the client's bad values, not our bugs. */
    static SoapFault invalidValue(TypedXMLStreamException e) {
        return SoapFault.client("invalid value '" + abbreviate(String.valueOf(e.getLexical())) + "': "
                + String.valueOf(e.getMessage()).replaceAll("\\s+", " "), e);
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
}

package perflab.soapecho.testkit;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import perflab.soapecho.contract.PerfContract;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/** Request envelopes and response reading for the stack tests, independent of the traffic module. */
public final class TestMessages {
    public static final String SOAP = PerfContract.SOAP11_ENVELOPE_NAMESPACE;
    public static final String T = PerfContract.TYPES_NAMESPACE;

    private TestMessages() {
    }

    public static String envelope(String payload) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><s:Envelope xmlns:s=\"" + SOAP + "\"><s:Body>" + payload
                + "</s:Body></s:Envelope>";
    }

    public static String item(int i) {
        byte[] bin = new byte[256];
        for (int j = 0; j < bin.length; j++) {
            bin[j] = (byte) (j - 128 + i);
        }
        return "<t:item><t:varString>#12345ABc&amp;" + i + "</t:varString><t:varUByte>" + (250 + i % 6) + "</t:varUByte>"
                + "<t:varUnsignedLong>1369105672" + i + "</t:varUnsignedLong><t:varFloat>3.4028235E38</t:varFloat>"
                + "<t:varQName xmlns:x=\"http://cxf.apache.org\">x:return" + i + "</t:varQName>"
                + "<t:varBase64Binary>" + Base64.getEncoder().encodeToString(bin) + "</t:varBase64Binary>"
                + "<t:varHexBinary>" + HexFormat.of().withUpperCase().formatHex(bin) + "</t:varHexBinary>"
                + "<t:varStruct varAttrString=\"1234567890!@#$%^&amp;*()abc&quot;" + i + "\"><t:varFloat>1.5</t:varFloat>"
                + "<t:varShort>" + (32767 - i) + "</t:varShort><t:varString>1234567890!@#$%^&amp;*()&lt;k&gt;</t:varString>"
                + "<t:varByte>-" + (i % 127 + 1) + "</t:varByte><t:varDecimal>3.141592" + i + "</t:varDecimal>"
                + "<t:varDouble>1.7976931348623157E308</t:varDouble><t:varDateTime>2005-12-03T00:00:0" + (i % 10) + "Z</t:varDateTime>"
                + "</t:varStruct><t:varEnum>" + (i % 3 == 0 ? "RED" : i % 3 == 1 ? "GREEN" : "BLUE") + "</t:varEnum></t:item>";
    }

    public static String complexTypeRequest(int items, int id) {
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < items; i++) {
            in.append(item(i));
        }
        return envelope("<t:echoComplexTypeDoc xmlns:t=\"" + T + "\"><t:in>" + in + "</t:in><t:id>" + id
                + "</t:id></t:echoComplexTypeDoc>");
    }

    public static String stringValue(int p) {
        String unit = "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*()_+?><[]/0123456789";
        return unit.repeat(16 * p);
    }

    public static String stringRequest(String value) {
        return envelope("<echoStringDoc xmlns=\"" + T + "\"><in>" + value.replace("&", "&amp;").replace("<", "&lt;")
                + "</in></echoStringDoc>");
    }

    public static byte[] base64Value(int p) {
        byte[] b = new byte[1024 * p];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    public static String base64Request(byte[] value) {
        return envelope("<echoBase64Doc xmlns=\"" + T + "\"><in>" + Base64.getMimeEncoder().encodeToString(value)
                + "</in></echoBase64Doc>");
    }

    public static Document parse(byte[] xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
    }

    public static Document parse(String xml) throws Exception {
        return parse(xml.getBytes(StandardCharsets.UTF_8));
    }

    /** The Body's first element child. */
    public static Element payload(Document envelope) {
        Element body = firstElement(envelope.getDocumentElement());
        return firstElement(body);
    }

    public static Element firstElement(Node parent) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                return e;
            }
        }
        return null;
    }

    public static List<Element> children(Element parent) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * Leaves of an element as "{ns}name=text" lines, attributes as "@name=value"; QName values resolved, so
     * that two serialisations of the same values compare equal.
     */
    public static List<String> leaves(Element e) {
        List<String> out = new ArrayList<>();
        collect(e, out);
        return out;
    }

    private static void collect(Element e, List<String> out) {
        NamedNodeMap attrs = e.getAttributes();
        for (int i = 0; i < attrs.getLength(); i++) {
            Node a = attrs.item(i);
            if (!"http://www.w3.org/2000/xmlns/".equals(a.getNamespaceURI())) {
                out.add("@" + a.getLocalName() + "=" + a.getNodeValue());
            }
        }
        List<Element> kids = children(e);
        if (kids.isEmpty()) {
            String text = e.getTextContent();
            if ("varQName".equals(e.getLocalName())) {
                int colon = text.indexOf(':');
                String ns = e.lookupNamespaceURI(colon < 0 ? null : text.substring(0, colon));
                text = "{" + ns + "}" + text.substring(colon + 1);
            }
            out.add("{" + e.getNamespaceURI() + "}" + e.getLocalName() + "=" + text);
        }
        for (Element k : kids) {
            collect(k, out);
        }
    }
}

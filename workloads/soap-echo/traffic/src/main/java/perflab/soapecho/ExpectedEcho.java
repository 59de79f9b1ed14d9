package perflab.soapecho;

import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.soapecho.contract.PerfContract;

import javax.xml.XMLConstants;
import javax.xml.namespace.NamespaceContext;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The deep check: what a correct response to one operation holds, as an ordered list of leaf values
 * (elements without child elements, and varStruct's attribute), compared by value with a fully parsed
 * response. Values are compared as their schema types (a float as a float, a QName as namespace plus local
 * part), so any correct serialisation passes.
 */
final class ExpectedEcho {
    enum Kind { STRING, INT, UNSIGNED_LONG, FLOAT, DOUBLE, DECIMAL, QNAME, BASE64, HEX, DATE_TIME }

    record Leaf(String path, Kind kind, Object value) {
    }

    /** One parsed leaf of a response: path, text, and for QNames the text resolved to {ns}local. */
    record Actual(String path, String text) {
    }

    private final String responseElement;
    private final List<Leaf> leaves;
    private final boolean hasIdout;
    /**
     * echoStringDoc and echoBase64Doc: the echoed text after the id's digits that open it (the only leaf, {@code out},
     * is then made per response from the request's id); null for echoComplexTypeDoc.
     */
    private final String afterId;
    private final Kind outKind;

    private ExpectedEcho(String operation, List<Leaf> leaves, boolean hasIdout) {
        this.responseElement = operation + PerfContract.RESPONSE_SUFFIX;
        this.leaves = List.copyOf(leaves);
        this.hasIdout = hasIdout;
        this.afterId = null;
        this.outKind = null;
    }

    private ExpectedEcho(String operation, Kind outKind, String afterId) {
        this.responseElement = operation + PerfContract.RESPONSE_SUFFIX;
        this.leaves = List.of();
        this.hasIdout = false;
        this.afterId = afterId;
        this.outKind = outKind;
    }

    static ExpectedEcho complexType(List<EchoItem> items) {
        List<Leaf> leaves = new ArrayList<>(items.size() * 16);
        for (int i = 0; i < items.size(); i++) {
            EchoItem item = items.get(i);
            EchoItem.Struct s = item.varStruct();
            String p = "return/item[" + i + "]/";
            leaves.add(new Leaf(p + "varString", Kind.STRING, item.varString()));
            leaves.add(new Leaf(p + "varUByte", Kind.INT, (long) item.varUByte()));
            leaves.add(new Leaf(p + "varUnsignedLong", Kind.UNSIGNED_LONG, item.varUnsignedLong()));
            leaves.add(new Leaf(p + "varFloat", Kind.FLOAT, item.varFloat()));
            leaves.add(new Leaf(p + "varQName", Kind.QNAME, "{" + item.varQNameNamespace() + "}" + item.varQNameLocalPart()));
            leaves.add(new Leaf(p + "varBase64Binary", Kind.BASE64, item.varBase64Binary()));
            leaves.add(new Leaf(p + "varHexBinary", Kind.HEX, item.varHexBinary()));
            leaves.add(new Leaf(p + "varStruct/@varAttrString", Kind.STRING, s.varAttrString()));
            leaves.add(new Leaf(p + "varStruct/varFloat", Kind.FLOAT, s.varFloat()));
            leaves.add(new Leaf(p + "varStruct/varShort", Kind.INT, (long) s.varShort()));
            leaves.add(new Leaf(p + "varStruct/varString", Kind.STRING, s.varString()));
            leaves.add(new Leaf(p + "varStruct/varByte", Kind.INT, (long) s.varByte()));
            leaves.add(new Leaf(p + "varStruct/varDecimal", Kind.DECIMAL, s.varDecimal()));
            leaves.add(new Leaf(p + "varStruct/varDouble", Kind.DOUBLE, s.varDouble()));
            leaves.add(new Leaf(p + "varStruct/varDateTime", Kind.DATE_TIME, s.varDateTime()));
            leaves.add(new Leaf(p + "varEnum", Kind.STRING, item.varEnum()));
        }
        return new ExpectedEcho(PerfContract.ECHO_COMPLEX_TYPE, leaves, true);
    }

    /** echoStringDoc: the string is the id's {@value RequestTemplate#ID_WIDTH} digits, then {@code afterId}. */
    static ExpectedEcho string(String afterId) {
        return new ExpectedEcho(PerfContract.ECHO_STRING, Kind.STRING, afterId);
    }

    /** echoBase64Doc: the bytes are those of the base64 text made of the id's digits, then {@code base64AfterId}. */
    static ExpectedEcho base64(String base64AfterId) {
        return new ExpectedEcho(PerfContract.ECHO_BASE64, Kind.BASE64, base64AfterId);
    }

    /** The leaves a correct response to the request with this id holds (allocates: deep checks only). */
    List<Leaf> leaves(long id) {
        if (afterId == null) {
            return leaves;
        }
        String text = idDigits(id) + afterId;
        Object value = outKind == Kind.BASE64 ? Base64.getDecoder().decode(text) : text;
        return List.of(new Leaf("out", outKind, value));
    }

    /** The id as the template's slot writes it: {@value RequestTemplate#ID_WIDTH} digits, zero padded. */
    static String idDigits(long id) {
        byte[] digits = new byte[Request.MAX_DIGITS];
        int n = Request.writeDecimal(id, RequestTemplate.ID_WIDTH, digits);
        return new String(digits, 0, n, java.nio.charset.StandardCharsets.US_ASCII);
    }

    /**
     * A StAX factory for responses: no DTDs, no external entities (responses come from the network). Woodstox rather
     * than the JDK's parser: the JDK's builds a reader per document and interns every name it reads (String.intern, a
     * JVM hash table): with it, the 1 % of responses checked in full took 4.7 % of the driver's CPU, with Woodstox 2.7 %.
     */
    static XMLInputFactory newInputFactory() {
        XMLInputFactory f = new com.ctc.wstx.stax.WstxInputFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        return f;
    }

    /** Returns null if the response echoes everything the request with {@code id} sent; else the first mismatch. */
    String mismatch(XMLInputFactory factory, byte[] body, long id) {
        List<Leaf> leaves = leaves(id);
        List<Actual> actual;
        try {
            actual = parse(factory, body);
        } catch (XMLStreamException | RuntimeException e) {
            return "response is not well-formed XML: " + oneLine(e.getMessage());
        }
        if (actual == null) {
            return "response has no " + responseElement + " in the SOAP Body";
        }
        int expectedCount = leaves.size() + (hasIdout ? 1 : 0);
        for (int i = 0; i < Math.min(leaves.size(), actual.size()); i++) {
            Leaf want = leaves.get(i);
            Actual got = actual.get(i);
            if (!want.path().equals(got.path())) {
                return "expected " + want.path() + " but found " + got.path();
            }
            if (!matches(want, got.text())) {
                return want.path() + ": expected " + show(want) + " but got '" + abbreviate(got.text()) + "'";
            }
        }
        if (actual.size() < leaves.size()) {
            return "response ends before " + leaves.get(actual.size()).path();
        }
        if (hasIdout) {
            if (actual.size() == leaves.size()) {
                return "response has no idout";
            }
            Actual idout = actual.get(leaves.size());
            if (!"idout".equals(idout.path())) {
                return "expected idout but found " + idout.path();
            }
            try {
                long got = Long.parseLong(idout.text().trim());
                if (got != id) {
                    return "idout: expected " + id + " but got " + got;
                }
            } catch (NumberFormatException e) {
                return "idout is not a number: '" + abbreviate(idout.text()) + "'";
            }
        }
        if (actual.size() > expectedCount) {
            return "unexpected extra element " + actual.get(expectedCount).path();
        }
        return null;
    }

    private static boolean matches(Leaf want, String text) {
        try {
            return switch (want.kind()) {
                case STRING -> want.value().equals(text);
                case INT -> Long.parseLong(text.trim()) == (Long) want.value();
                case UNSIGNED_LONG -> Long.parseUnsignedLong(text.trim()) == (Long) want.value();
                case FLOAT -> Float.compare(Float.parseFloat(text.trim()), (Float) want.value()) == 0;
                case DOUBLE -> Double.compare(Double.parseDouble(text.trim()), (Double) want.value()) == 0;
                case DECIMAL -> new BigDecimal(text.trim()).compareTo((BigDecimal) want.value()) == 0;
                case QNAME -> want.value().equals(text);
                case BASE64 -> Arrays.equals(Base64.getMimeDecoder().decode(text.trim()), (byte[]) want.value());
                case HEX -> Arrays.equals(HexFormat.of().parseHex(text.trim().toLowerCase(Locale.ROOT)), (byte[]) want.value());
                case DATE_TIME -> OffsetDateTime.parse(text.trim()).isEqual((OffsetDateTime) want.value());
            };
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String show(Leaf want) {
        Object v = want.value();
        if (v instanceof byte[] b) {
            return b.length + " bytes";
        }
        return "'" + abbreviate(String.valueOf(v)) + "'";
    }

    /** The leaves of the response payload, or null if the Body does not hold the expected response element. */
    private List<Actual> parse(XMLInputFactory factory, byte[] body) throws XMLStreamException {
        XMLStreamReader r = factory.createXMLStreamReader(new ByteArrayInputStream(body));
        try {
            // find the response element
            while (true) {
                if (!r.hasNext()) {
                    return null;
                }
                if (r.next() == XMLStreamConstants.START_ELEMENT && responseElement.equals(r.getLocalName())
                        && PerfContract.TYPES_NAMESPACE.equals(r.getNamespaceURI())) {
                    break;
                }
            }
            List<Actual> out = new ArrayList<>(leaves.size() + 1);
            List<String> path = new ArrayList<>();
            List<int[]> itemCounters = new ArrayList<>(); // per open element: items seen in it
            itemCounters.add(new int[1]);
            boolean leaf = false;
            StringBuilder text = new StringBuilder();
            String qname = null;
            while (true) {
                int event = r.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    String name = r.getLocalName();
                    if ("item".equals(name)) {
                        name = "item[" + itemCounters.get(itemCounters.size() - 1)[0]++ + "]";
                    }
                    path.add(name);
                    itemCounters.add(new int[1]);
                    String prefix = String.join("/", path);
                    for (int a = 0; a < r.getAttributeCount(); a++) {
                        if (r.getAttributeNamespace(a) == null || r.getAttributeNamespace(a).isEmpty()) {
                            out.add(new Actual(prefix + "/@" + r.getAttributeLocalName(a), r.getAttributeValue(a)));
                        }
                    }
                    leaf = true;
                    text.setLength(0);
                    qname = "varQName".equals(name) ? "" : null;
                    if (qname != null) {
                        // resolve the value's prefix in this element's scope, as xs:QName requires
                        NamespaceContext scope = r.getNamespaceContext();
                        String value = r.getElementText().trim();
                        int colon = value.indexOf(':');
                        String p = colon < 0 ? XMLConstants.DEFAULT_NS_PREFIX : value.substring(0, colon);
                        String ns = scope.getNamespaceURI(p);
                        out.add(new Actual(prefix, "{" + (ns == null ? "" : ns) + "}" + value.substring(colon + 1)));
                        path.remove(path.size() - 1);
                        itemCounters.remove(itemCounters.size() - 1);
                        leaf = false;
                    }
                } else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA
                        || event == XMLStreamConstants.SPACE) {
                    if (leaf) {
                        text.append(r.getText());
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    if (path.isEmpty()) {
                        return out; // the response element closed
                    }
                    if (leaf) {
                        out.add(new Actual(String.join("/", path), text.toString()));
                    }
                    path.remove(path.size() - 1);
                    itemCounters.remove(itemCounters.size() - 1);
                    leaf = false;
                } else if (event == XMLStreamConstants.END_DOCUMENT) {
                    return out;
                }
            }
        } finally {
            r.close();
        }
    }

    private static String abbreviate(String s) {
        String t = oneLine(s);
        return t.length() <= 60 ? t : t.substring(0, 60) + "...";
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s+", " ").trim();
    }
}

package perflab.soapecho;

import perflab.soapecho.contract.PerfContract;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What soap-echo sends, deterministic from the run's seed, shaped like the CXF harness's data: item strings
 * of 9 and 31 characters with XML-special characters in them, 256 random bytes per binary field, a
 * 1024-character string per packet unit, 1024 random bytes for base64. Request envelopes are written the way
 * a JAX-WS client writes them (payload in the default namespace), with {@code id} as the template's slot: in
 * echoComplexTypeDoc the {@code id} element, in echoStringDoc and echoBase64Doc the first {@link #ID_CHARS}
 * characters of the echoed text, so that no two requests of a client are the same and a server that answers
 * one canned or cached response fails the cheap check.
 */
final class EchoPayloads {
    static final String STRING_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*()_+?><[]/0123456789";
    private static final String STRUCT_ALPHABET = "1234567890!@#$%^&*()abcdefghijk";
    private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final String[] COLOURS = {"RED", "GREEN", "BLUE"};
    static final String QNAME_NAMESPACE = "http://cxf.apache.org";
    private static final java.time.format.DateTimeFormatter DATE_TIME =
            java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");

    private static final String ENVELOPE_START = "<soap:Envelope xmlns:soap=\"" + PerfContract.SOAP11_ENVELOPE_NAMESPACE
            + "\"><soap:Body>";
    private static final String ENVELOPE_END = "</soap:Body></soap:Envelope>";

    /** How many characters at the start of the string, and of the base64 text, the id's digits take. */
    static final int ID_CHARS = perflab.core.traffic.RequestTemplate.ID_WIDTH;

    private EchoPayloads() {
    }

    static List<EchoItem> items(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<EchoItem> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            items.add(item(random));
        }
        return List.copyOf(items);
    }

    private static EchoItem item(SplittableRandom r) {
        byte[] base64 = bytes(r, PerfContract.ITEM_BINARY_BYTES);
        byte[] hex = bytes(r, PerfContract.ITEM_BINARY_BYTES);
        OffsetDateTime when = OffsetDateTime.of(2005, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC).plusSeconds(r.nextInt(365 * 86_400));
        EchoItem.Struct struct = new EchoItem.Struct(r.nextFloat() * Float.MAX_VALUE, (short) r.nextInt(1 << 16),
                shuffled(r, STRUCT_ALPHABET), (byte) r.nextInt(256),
                new BigDecimal(r.nextInt(10) + "." + String.format("%07d", r.nextInt(10_000_000))),
                r.nextDouble() * Double.MAX_VALUE, when, shuffled(r, STRUCT_ALPHABET));
        return new EchoItem("#" + random(r, ALNUM, 8), r.nextInt(256), 10_000_000_000L + r.nextLong(90_000_000_000L),
                r.nextFloat() * Float.MAX_VALUE, QNAME_NAMESPACE, "return", base64, hex, struct,
                COLOURS[r.nextInt(COLOURS.length)]);
    }

    /** {@code 1024 * packetSize} characters from the harness's alphabet, in a seeded order. */
    static String string(int packetSize, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder s = new StringBuilder(PerfContract.STRING_CHARS_PER_PACKET * packetSize);
        while (s.length() < PerfContract.STRING_CHARS_PER_PACKET * packetSize) {
            s.append(shuffled(r, STRING_ALPHABET));
        }
        s.setLength(PerfContract.STRING_CHARS_PER_PACKET * packetSize);
        return s.toString();
    }

    static byte[] base64Bytes(long seed) {
        return bytes(new SplittableRandom(seed), PerfContract.BASE64_BYTES);
    }

    /** The echoComplexTypeDoc envelope split around its id: [before the id digits, after them]. */
    static String[] complexTypeRequest(List<EchoItem> items) {
        StringBuilder xml = new StringBuilder(ENVELOPE_START.length() + items.size() * 1700 + 200);
        xml.append(ENVELOPE_START).append("<echoComplexTypeDoc xmlns=\"").append(PerfContract.TYPES_NAMESPACE)
                .append("\"><in>");
        for (EchoItem item : items) {
            appendItem(xml, item);
        }
        xml.append("</in><id>");
        return new String[] {xml.toString(), "</id></echoComplexTypeDoc>" + ENVELOPE_END};
    }

    /**
     * The echoStringDoc envelope split around the id that replaces the string's first {@link #ID_CHARS} characters:
     * [before the id digits, after them]. The string keeps its length; digits need no escaping.
     */
    static String[] stringRequest(String value) {
        StringBuilder xml = new StringBuilder(value.length() + value.length() / 4 + 300);
        xml.append(ENVELOPE_START).append("<echoStringDoc xmlns=\"").append(PerfContract.TYPES_NAMESPACE).append("\"><in>");
        String before = xml.toString();
        xml.setLength(0);
        escape(xml, afterId(value), false);
        return new String[] {before, xml.append("</in></echoStringDoc>").append(ENVELOPE_END).toString()};
    }

    /**
     * The echoBase64Doc envelope split around the id that replaces the base64 text's first {@link #ID_CHARS}
     * characters (digits are base64 characters): [before the id digits, after them]. The text stays whole 4-character
     * groups at the start, which decode to bytes and encode back to the same characters, so a correct echo starts with
     * the same digits.
     */
    static String[] base64Request(byte[] value) {
        return new String[] {ENVELOPE_START + "<echoBase64Doc xmlns=\"" + PerfContract.TYPES_NAMESPACE + "\"><in>",
                afterId(base64Text(value)) + "</in></echoBase64Doc>" + ENVELOPE_END};
    }

    static String base64Text(byte[] value) {
        return java.util.Base64.getEncoder().encodeToString(value);
    }

    /** What follows the id's digits in an echoed text. */
    static String afterId(String text) {
        return text.substring(ID_CHARS);
    }

    private static void appendItem(StringBuilder xml, EchoItem item) {
        EchoItem.Struct s = item.varStruct();
        xml.append("<item>");
        text(xml, "varString", item.varString());
        text(xml, "varUByte", Integer.toString(item.varUByte()));
        text(xml, "varUnsignedLong", Long.toUnsignedString(item.varUnsignedLong()));
        text(xml, "varFloat", Float.toString(item.varFloat()));
        xml.append("<varQName xmlns:ns3=\"").append(item.varQNameNamespace()).append("\">ns3:")
                .append(item.varQNameLocalPart()).append("</varQName>");
        text(xml, "varBase64Binary", java.util.Base64.getEncoder().encodeToString(item.varBase64Binary()));
        text(xml, "varHexBinary", HexFormat.of().withUpperCase().formatHex(item.varHexBinary()));
        xml.append("<varStruct varAttrString=\"");
        escape(xml, s.varAttrString(), true);
        xml.append("\">");
        text(xml, "varFloat", Float.toString(s.varFloat()));
        text(xml, "varShort", Short.toString(s.varShort()));
        text(xml, "varString", s.varString());
        text(xml, "varByte", Byte.toString(s.varByte()));
        text(xml, "varDecimal", s.varDecimal().toPlainString());
        text(xml, "varDouble", Double.toString(s.varDouble()));
        text(xml, "varDateTime", DATE_TIME.format(s.varDateTime()));
        xml.append("</varStruct>");
        text(xml, "varEnum", item.varEnum());
        xml.append("</item>");
    }

    private static void text(StringBuilder xml, String element, String value) {
        xml.append('<').append(element).append('>');
        escape(xml, value, false);
        xml.append("</").append(element).append('>');
    }

    static void escape(StringBuilder xml, String value, boolean attribute) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> xml.append("&amp;");
                case '<' -> xml.append("&lt;");
                case '>' -> xml.append("&gt;");
                case '"' -> xml.append(attribute ? "&quot;" : "\"");
                default -> xml.append(c);
            }
        }
    }

    private static byte[] bytes(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) r.nextInt(256);
        }
        return b;
    }

    private static String random(SplittableRandom r, String alphabet, int n) {
        StringBuilder s = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            s.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return s.toString();
    }

    private static String shuffled(SplittableRandom r, String alphabet) {
        char[] c = alphabet.toCharArray();
        for (int i = c.length - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            char t = c[i];
            c[i] = c[j];
            c[j] = t;
        }
        return new String(c);
    }
}

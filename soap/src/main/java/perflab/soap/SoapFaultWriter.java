package perflab.soap;

import java.nio.charset.StandardCharsets;

/**
 * Writes a SOAP 1.1 Fault envelope. The fault string is XML-escaped, stripped of characters XML 1.0 cannot
 * carry and cut to a bounded length, so whatever a hostile request made us say stays well-formed and small.
 */
public final class SoapFaultWriter {
    /** SOAP 1.1 over HTTP answers every fault with 500 (SOAP 1.1 section 6.2). */
    public static final int HTTP_STATUS = 500;
    public static final String CONTENT_TYPE = "text/xml; charset=UTF-8";
    static final int MAX_REASON_CHARS = 512;

    private static final String BEFORE_CODE = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            + "<soap:Envelope xmlns:soap=\"" + SoapEnvelopeReader.SOAP11_NS + "\"><soap:Body><soap:Fault>"
            + "<faultcode>soap:";
    private static final String BETWEEN = "</faultcode><faultstring>";
    private static final String AFTER = "</faultstring></soap:Fault></soap:Body></soap:Envelope>";

    private SoapFaultWriter() {
    }

    public static byte[] toBytes(SoapFault fault) {
        return toBytes(fault.code(), fault.reason());
    }

    public static byte[] toBytes(SoapFault.Code code, String reason) {
        StringBuilder xml = new StringBuilder(BEFORE_CODE.length() + 160);
        xml.append(BEFORE_CODE).append(code.localName()).append(BETWEEN);
        appendEscaped(xml, reason == null ? "" : reason);
        xml.append(AFTER);
        return xml.toString().getBytes(StandardCharsets.UTF_8);
    }

    static void appendEscaped(StringBuilder out, String text) {
        int n = Math.min(text.length(), MAX_REASON_CHARS);
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\n', '\r', '\t' -> out.append(' ');
                default -> {
                    if (c < 0x20 || c == 0xFFFE || c == 0xFFFF) {
                        out.append('?');
                    } else if (Character.isSurrogate(c)) {
                        boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length()
                                && Character.isLowSurrogate(text.charAt(i + 1));
                        if (pair) {
                            out.append(c).append(text.charAt(++i));
                        } else {
                            out.append('?');
                        }
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        if (text.length() > n) {
            out.append("...");
        }
    }
}

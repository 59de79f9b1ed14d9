package perflab.soapecho;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.HeldResponse;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Verdict;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;
import perflab.core.workload.Workloads;
import perflab.soapecho.contract.PerfContract;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SoapEchoTrafficTest {
    private static final URI TARGET = URI.create("http://127.0.0.1:8080" + PerfContract.SERVICE_PATH);

    static SoapEchoTraffic traffic(String operation, int p) {
        return SoapEchoTraffic.of(new TrafficOptions(operation, TARGET, 42L, Map.of("payload", Integer.toString(p))));
    }

    /** A correct answer made from the request itself: rename the payload elements as the contract says. */
    static String echoOf(RequestTemplate template, long id) {
        String request = new String(template.body(Request.of(template, id)), StandardCharsets.UTF_8);
        return request.replace("<echoComplexTypeDoc ", "<echoComplexTypeDocResponse ")
                .replace("</echoComplexTypeDoc>", "</echoComplexTypeDocResponse>")
                .replace("<in>", "<return>").replace("</in>", "</return>")
                .replace("<id>", "<idout>").replace("</id>", "</idout>")
                .replace("<echoStringDoc ", "<echoStringDocResponse ").replace("</echoStringDoc>", "</echoStringDocResponse>")
                .replace("<echoBase64Doc ", "<echoBase64DocResponse ").replace("</echoBase64Doc>", "</echoBase64DocResponse>")
                .replace("<return>", PerfContract.ECHO_COMPLEX_TYPE.equals(template.kind()) ? "<return>" : "<out>")
                .replace("</return>", PerfContract.ECHO_COMPLEX_TYPE.equals(template.kind()) ? "</return>" : "</out>");
    }

    @Test
    void workloadIsRegistered() {
        Workload w = Workloads.named("soap-echo");
        assertEquals(PerfContract.ECHO_COMPLEX_TYPE, w.operations().get(0).name());
        assertEquals("lean", w.stacks().get(0).name());
        assertEquals(PerfContract.SERVICE_PATH, w.servicePath());
    }

    @Test
    void packetSizeBelowOneIsRefused() {
        // the workload's declared setting checks the value before any traffic is built
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SoapEchoWorkload().checkSettings(Map.of("payload", "0")));
        assertEquals("--payload must be within 1..100000, got 0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SoapEchoWorkload().checkSettings(Map.of("payload", "x")));
        assertEquals(Map.of("payload", "7"), new SoapEchoWorkload().checkSettings(Map.of("payload", " 07")));
        assertThrows(IllegalArgumentException.class, () -> traffic("echoNothing", 1));
    }

    @Test
    void templatesHaveTheHarnessSizes() {
        RequestTemplate complex = traffic(PerfContract.ECHO_COMPLEX_TYPE, 1).template();
        RequestTemplate string = traffic(PerfContract.ECHO_STRING, 1).template();
        RequestTemplate base64 = traffic(PerfContract.ECHO_BASE64, 1).template();
        System.out.printf("envelope bytes at P=1: complex %d, string %d, base64 %d%n",
                complex.bodyLength(), string.bodyLength(), base64.bodyLength());
        assertTrue(complex.bodyLength() > 1600 && complex.bodyLength() < 1900, "complex " + complex.bodyLength());
        assertTrue(string.bodyLength() > 1300 && string.bodyLength() < 1500, "string " + string.bodyLength());
        assertTrue(base64.bodyLength() > 1500 && base64.bodyLength() < 1700, "base64 " + base64.bodyLength());
        assertTrue(complex.hasIdSlot());
        assertEquals(PerfContract.SERVICE_PATH, complex.path(Request.of(complex, 0)));
        assertEquals("POST", complex.method());

        RequestTemplate complex5 = traffic(PerfContract.ECHO_COMPLEX_TYPE, 5).template();
        int perItem = (complex5.bodyLength() - complex.bodyLength()) / 4;
        assertTrue(perItem > 1400 && perItem < 1700, "per item " + perItem);
        assertEquals(5 * 1024, EchoPayloads.string(5, 1).length());
    }

    @Test
    void requestsAreValidAgainstTheSchemaAndDeterministic() throws Exception {
        Schema schema = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(new StreamSource(new StringReader(PerfContract.schema())));
        for (String op : List.of(PerfContract.ECHO_COMPLEX_TYPE, PerfContract.ECHO_STRING, PerfContract.ECHO_BASE64)) {
            for (int p : new int[] {1, 3}) {
                RequestTemplate t = traffic(op, p).template();
                schema.newValidator().validate(new DOMSource(bodyChild(t.body(Request.of(t, 123)))));
                assertEquals(new String(t.body(Request.of(t, 7)), StandardCharsets.UTF_8),
                        new String(body(traffic(op, p).template(), 7), StandardCharsets.UTF_8));
            }
        }
        assertNotEquals(new String(body(traffic(PerfContract.ECHO_COMPLEX_TYPE, 1).template(), 1), StandardCharsets.UTF_8),
                new String(body(SoapEchoTraffic.of(new TrafficOptions(PerfContract.ECHO_COMPLEX_TYPE, TARGET, 43L, Map.of("payload", "1")))
                        .template(), 1), StandardCharsets.UTF_8));
    }

    private static byte[] body(RequestTemplate t, long id) {
        return t.body(Request.of(t, id));
    }

    private static Element bodyChild(byte[] envelope) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(envelope));
        Node body = doc.getDocumentElement().getFirstChild();
        assertEquals("Body", body.getLocalName());
        return (Element) body.getFirstChild();
    }

    @Test
    void idsIncreasePerClientWithinXsInt() {
        SoapEchoTraffic t = traffic(PerfContract.ECHO_COMPLEX_TYPE, 1);
        ClientSession a = t.newSession(new ClientContext(0, 1));
        ClientSession b = t.newSession(new ClientContext(3, 1));
        ClientSession far = t.newSession(new ClientContext(1000, 1));
        long first = a.next().id();
        assertEquals(first + 1, a.next().id());
        assertNotEquals(first, b.next().id());
        long id = far.next().id();
        assertTrue(id >= 0 && id <= Integer.MAX_VALUE, "id " + id);
    }

    @Test
    void checkAcceptsACorrectResponseForEveryOperation() {
        for (String op : List.of(PerfContract.ECHO_COMPLEX_TYPE, PerfContract.ECHO_STRING, PerfContract.ECHO_BASE64)) {
            SoapEchoTraffic t = traffic(op, 2);
            ClientSession s = t.newSession(new ClientContext(2, 9));
            Request r = s.next();
            HeldResponse ok = HeldResponse.of(200, echoOf(t.template(), r.id()));
            assertTrue(s.check(r, ok, false).ok(), op + " cheap");
            Verdict deep = s.check(r, ok, true);
            assertTrue(deep.ok(), op + " deep: " + deep);
        }
    }

    /**
     * No two requests of a client are the same, and a correct answer to one request is a validation error for any
     * other, on the cheap check alone: a server that answers one canned or cached response fails at once.
     */
    @Test
    void anAnswerToAnotherRequestFailsTheCheapCheckInEveryOperation() {
        for (String op : List.of(PerfContract.ECHO_COMPLEX_TYPE, PerfContract.ECHO_STRING, PerfContract.ECHO_BASE64)) {
            SoapEchoTraffic t = traffic(op, 1);
            ClientSession s = t.newSession(new ClientContext(1, 9));
            Request first = s.next();
            long firstId = first.id();
            String firstBody = new String(t.template().body(first), StandardCharsets.UTF_8);
            String answerToFirst = echoOf(t.template(), firstId);
            Request second = s.next();
            assertNotEquals(firstBody, new String(t.template().body(second), StandardCharsets.UTF_8), op);
            assertEquals(t.template().bodyLength(), t.template().body(second).length, op + ": Content-Length is fixed");
            Verdict cheap = s.check(second, HeldResponse.of(200, answerToFirst), false);
            assertEquals(ErrorKind.VALIDATION, cheap.kind(), op + ": " + cheap);
            assertTrue(s.check(second, HeldResponse.of(200, echoOf(t.template(), second.id())), true).ok(), op);
        }
    }

    /** The id opens echoStringDoc's string and echoBase64Doc's text; the deep check compares the whole echo with it. */
    @Test
    void theIdOpensTheEchoedStringAndBytes() {
        SoapEchoTraffic st = traffic(PerfContract.ECHO_STRING, 1);
        Request sr = Request.of(st.template(), 1234);
        String body = new String(st.template().body(sr), StandardCharsets.UTF_8);
        String sent = body.substring(body.indexOf("<in>") + 4, body.indexOf("</in>"))
                .replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        String value = EchoPayloads.string(1, 42L);
        assertEquals("0000001234" + value.substring(EchoPayloads.ID_CHARS), sent, "the id, then the seeded string");
        assertEquals(PerfContract.STRING_CHARS_PER_PACKET, sent.length(), "the string keeps its length");

        SoapEchoTraffic bt = traffic(PerfContract.ECHO_BASE64, 1);
        Request br = Request.of(bt.template(), 1234);
        String b64 = new String(bt.template().body(br), StandardCharsets.UTF_8);
        String text = b64.substring(b64.indexOf("<in>") + 4, b64.indexOf("</in>"));
        assertTrue(text.startsWith("0000001234"), text);
        byte[] bytes = java.util.Base64.getDecoder().decode(text);
        assertEquals(PerfContract.BASE64_BYTES, bytes.length);
        assertEquals(text, java.util.Base64.getEncoder().encodeToString(bytes), "re-encoded, the id's digits come back");
        // the deep check takes equal bytes in another (MIME, line-broken) base64 form, and not other bytes
        ClientSession s = bt.newSession(new ClientContext(0, 9));
        Request r = s.next();
        String good = echoOf(bt.template(), r.id());
        String mime = good.replace(text(good), java.util.Base64.getMimeEncoder().encodeToString(
                java.util.Base64.getDecoder().decode(text(good))));
        assertTrue(s.check(r, HeldResponse.of(200, mime), true).ok(), "MIME line breaks after the first 76 characters");
        char other = text(good).charAt(20) == 'A' ? 'B' : 'A';
        String changed = good.replaceFirst("<out>(.{20}).", "<out>$1" + other);
        assertTrue(s.check(r, HeldResponse.of(200, changed), false).ok(), "the cheap check reads the id's digits only");
        assertEquals(ErrorKind.VALIDATION, s.check(r, HeldResponse.of(200, changed), true).kind());
    }

    /**
     * Other SOAP stacks write out with a prefix or attributes: the cheap check finds its start tag in each, and not an
     * end tag or a longer name that holds "out".
     */
    @Test
    void theOutStartTagIsFoundWhateverItsPrefixAndAttributes() {
        for (String op : List.of(PerfContract.ECHO_STRING, PerfContract.ECHO_BASE64)) {
            SoapEchoTraffic t = traffic(op, 1);
            ClientSession s = t.newSession(new ClientContext(0, 9));
            Request r = s.next();
            String good = echoOf(t.template(), r.id());
            for (String[] form : new String[][] {{"<ns2:out>", "</ns2:out>"}, {"<out xmlns=\"\">", "</out>"},
                    {"<out\n>", "</out>"}, {"<a-b.c:out a=\"1\">", "</a-b.c:out>"}}) {
                String other = good.replace("<out>", form[0]).replace("</out>", form[1]);
                assertTrue(s.check(r, HeldResponse.of(200, other), false).ok(), op + " " + form[0] + ": " + other);
            }
            // an element named layout, an end tag and an empty out before the real one are not its start
            String decoys = good.replace("<out>", "<layout>9</layout></ns9:out><out/><out>");
            assertFalse(s.check(r, HeldResponse.of(200, decoys), false).ok(),
                    op + ": an empty <out/> first is the out, and it holds no id");
            String layout = good.replace("<out>", "<layout>9</layout><x></ns9:out></x><out>");
            assertTrue(s.check(r, HeldResponse.of(200, layout), false).ok(), op + ": " + layout);
            String none = good.replace("<out>", "<layout>").replace("</out>", "</layout>");
            assertEquals(ErrorKind.VALIDATION, s.check(r, HeldResponse.of(200, none), false).kind(), op);
        }
    }

    private static String text(String echo) {
        return echo.substring(echo.indexOf("<out>") + 5, echo.indexOf("</out>"));
    }

    @Test
    void wrongIdoutIsAValidationError() {
        SoapEchoTraffic t = traffic(PerfContract.ECHO_COMPLEX_TYPE, 1);
        ClientSession s = t.newSession(new ClientContext(0, 9));
        Request r = s.next();
        Verdict v = s.check(r, HeldResponse.of(200, echoOf(t.template(), r.id() + 1)), false);
        assertEquals(ErrorKind.VALIDATION, v.kind(), v.toString());
        String noIdout = echoOf(t.template(), r.id()).replace("idout", "idOops");
        assertEquals(ErrorKind.VALIDATION, s.check(r, HeldResponse.of(200, noIdout), false).kind());
    }

    /**
     * The idout is looked for where the last response had it: a response whose layout moved (a comment before it),
     * one whose remembered place now holds the closing tag's {@code idout>}, and one without the tag are each judged
     * on their own.
     */
    @Test
    void idoutIsFoundWhereverTheLayoutPutsIt() {
        SoapEchoTraffic t = traffic(PerfContract.ECHO_COMPLEX_TYPE, 1);
        ClientSession s = t.newSession(new ClientContext(0, 9));
        Request r = s.next();
        assertTrue(s.check(r, HeldResponse.of(200, echoOf(t.template(), r.id())), false).ok());
        Request next = s.next();
        String plain = echoOf(t.template(), next.id());
        int digits = plain.indexOf("</idout>") - plain.indexOf("<idout>") - "<idout>".length(); // the id's width
        assertTrue(s.check(next, HeldResponse.of(200, padded(t, next.id(), 40)), false).ok(), "moved: found by a scan");
        assertEquals(ErrorKind.VALIDATION, s.check(next, HeldResponse.of(200, padded(t, next.id() + 1, 40)), false).kind(),
                "a wrong id at the remembered place fails");
        // "</" + "idout>" ends 8 + digits bytes after the opening "idout>": a pad that much shorter puts it there
        String closingThere = padded(t, next.id(), 40 - 8 - digits);
        assertEquals(padded(t, next.id(), 40).indexOf("<idout>") + 1, closingThere.indexOf("</idout>") + 2,
                "the closing tag's idout> sits at the remembered place");
        assertTrue(s.check(next, HeldResponse.of(200, closingThere), false).ok(), "the closing tag is not taken: scanned");
        assertEquals(ErrorKind.VALIDATION, s.check(next, HeldResponse.of(200,
                padded(t, next.id(), 40).replace("idout", "idOops")), false).kind(), "no tag at all");
    }

    /** A correct echo with a comment of {@code length} bytes before idout. */
    private static String padded(SoapEchoTraffic t, long id, int length) {
        return echoOf(t.template(), id).replace("<idout>", "<!--" + "x".repeat(length - 7) + "-->" + "<idout>");
    }

    @Test
    void faultAndBadStatusAreClassified() {
        SoapEchoTraffic t = traffic(PerfContract.ECHO_COMPLEX_TYPE, 1);
        ClientSession s = t.newSession(new ClientContext(0, 9));
        Request r = s.next();
        String fault = "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><soap:Fault>"
                + "<faultcode>soap:Server</faultcode><faultstring>boom</faultstring></soap:Fault></soap:Body></soap:Envelope>";
        Verdict v = s.check(r, HeldResponse.of(500, fault), false);
        assertEquals(ErrorKind.FAULT, v.kind());
        assertTrue(v.message().contains("boom"), v.message());
        assertEquals(ErrorKind.HTTP_STATUS, s.check(r, HeldResponse.of(503, "busy"), false).kind());
        assertEquals(ErrorKind.HTTP_STATUS, s.check(r, HeldResponse.of(500, "<html>oops</html>"), false).kind());
    }

    @Test
    void deepCheckNamesTheFirstChangedField() {
        SoapEchoTraffic t = traffic(PerfContract.ECHO_COMPLEX_TYPE, 2);
        ClientSession s = t.newSession(new ClientContext(0, 9));
        Request r = s.next();
        String good = echoOf(t.template(), r.id());
        EchoItem second = EchoPayloads.items(2, 42L).get(1);
        String bad = replaceLast(good, "<varEnum>" + second.varEnum() + "</varEnum>",
                "<varEnum>" + (second.varEnum().equals("RED") ? "BLUE" : "RED") + "</varEnum>");
        assertTrue(s.check(r, HeldResponse.of(200, bad), false).ok(), "the cheap check does not look at fields");
        Verdict v = s.check(r, HeldResponse.of(200, bad), true);
        assertEquals(ErrorKind.VALIDATION, v.kind());
        assertTrue(v.message().contains("item[1]/varEnum"), v.message());

        String shortDecimal = good.replace("<varDecimal>", "<varDecimal>1");
        Verdict d = s.check(r, HeldResponse.of(200, shortDecimal), true);
        assertTrue(d.message().contains("item[0]/varStruct/varDecimal"), d.message());

        // equal values written differently still pass: 'ns3:' prefix renamed, float with another lexical form
        String relabelled = good.replace("xmlns:ns3=", "xmlns:zz=").replace(">ns3:", ">zz:");
        assertTrue(s.check(r, HeldResponse.of(200, relabelled), true).ok());

        SoapEchoTraffic st = traffic(PerfContract.ECHO_STRING, 1);
        ClientSession ss = st.newSession(new ClientContext(0, 9));
        Request sr = ss.next();
        // past the id's digits, which the cheap check reads
        String changed = echoOf(st.template(), sr.id()).replaceFirst("<out>(.{" + EchoPayloads.ID_CHARS + "}).", "<out>$1~");
        assertTrue(ss.check(sr, HeldResponse.of(200, changed), false).ok(), "the cheap check reads the id's digits only");
        Verdict sv = ss.check(sr, HeldResponse.of(200, changed), true);
        assertEquals(ErrorKind.VALIDATION, sv.kind());
        assertTrue(sv.message().startsWith("out:"), sv.message());
    }

    /**
     * A deep check parses a body the session has not verified: the next correct bodies, which differ only in the id's
     * echo (idout growing from one digit to two here, as a server writes an int), are compared, not parsed; a body
     * changed anywhere else is parsed, and fails naming the field.
     */
    @Test
    void aDeepCheckParsesOnlyABodyItHasNotVerifiedInFull() {
        for (String op : List.of(PerfContract.ECHO_COMPLEX_TYPE, PerfContract.ECHO_STRING, PerfContract.ECHO_BASE64)) {
            SoapEchoTraffic t = traffic(op, 2);
            SoapEchoSession s = (SoapEchoSession) t.newSession(new ClientContext(0, 9));
            for (int i = 0; i < 12; i++) {
                Request r = s.next();
                Verdict v = s.check(r, HeldResponse.of(200, serverEchoOf(t, r.id())), true);
                assertTrue(v.ok(), op + " id " + r.id() + ": " + v);
            }
            assertEquals(1, s.fullParses(), op + ": only the first body was parsed");

            Request r = s.next();
            String good = serverEchoOf(t, r.id());
            String bad;
            if (op.equals(PerfContract.ECHO_COMPLEX_TYPE)) {
                String v = EchoPayloads.items(2, 42L).get(1).varEnum();
                bad = replaceLast(good, "<varEnum>" + v + "</varEnum>", "<varEnum>" + (v.equals("RED") ? "BLUE" : "RED") + "</varEnum>");
            } else {
                char other = text(good).charAt(EchoPayloads.ID_CHARS + 3) == 'A' ? 'B' : 'A';
                bad = good.replaceFirst("<out>(.{" + (EchoPayloads.ID_CHARS + 3) + "}).", "<out>$1" + other);
            }
            Verdict v = s.check(r, HeldResponse.of(200, bad), true);
            assertEquals(ErrorKind.VALIDATION, v.kind(), op + ": " + v);
            assertEquals(2, s.fullParses(), op + ": a body changed past the id is parsed");
            if (op.equals(PerfContract.ECHO_COMPLEX_TYPE)) {
                assertTrue(v.message().contains("item[1]/varEnum"), v.message());
            }
            Request next = s.next();
            assertTrue(s.check(next, HeldResponse.of(200, serverEchoOf(t, next.id())), true).ok(), op);
            assertEquals(2, s.fullParses(), op + ": the failed body did not replace the verified one");
        }
    }

    /** {@link #echoOf}, with idout written as a server writes an int: no leading zeros. */
    private static String serverEchoOf(SoapEchoTraffic t, long id) {
        return echoOf(t.template(), id).replaceFirst("<idout>[0-9]+</idout>", "<idout>" + id + "</idout>");
    }

    private static String replaceLast(String s, String what, String with) {
        int at = s.lastIndexOf(what);
        assertTrue(at >= 0, "not found: " + what);
        return s.substring(0, at) + with + s.substring(at + what.length());
    }
}

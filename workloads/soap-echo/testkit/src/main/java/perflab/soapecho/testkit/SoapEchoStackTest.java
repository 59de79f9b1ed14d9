package perflab.soapecho.testkit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import perflab.core.sut.StartedServer;
import perflab.soapecho.contract.PerfContract;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every soap-echo stack does in-process on HTTP/1.1, whatever its product: the three echoes at packet sizes
 * 1 and 5, hostile input answered by a quick SOAP 1.1 fault, Upgrade headers on a POST, the connection limit.
 * A stack's test class extends this, names its {@link #stack()} and adds what differs between products.
 */
@Timeout(60)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SoapEchoStackTest {
    protected static final int MAX_REQUEST_BYTES = 256 * 1024;
    protected static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    /** Started with {@link #MAX_REQUEST_BYTES} and 16 server threads. */
    protected StartedServer server;
    protected URI service;

    /** The stack under test. */
    protected abstract InProcessStack stack();

    @BeforeAll
    void startServer() throws Exception {
        server = stack().startOnLoopback("--max-request-bytes", String.valueOf(MAX_REQUEST_BYTES), "--server-threads", "16");
        service = URI.create("http://127.0.0.1:" + server.port() + PerfContract.SERVICE_PATH);
    }

    @AfterAll
    void stopServer() throws Exception {
        server.stop();
    }

    protected HttpResponse<byte[]> post(String xml) throws Exception {
        return post(xml.getBytes(StandardCharsets.UTF_8));
    }

    protected HttpResponse<byte[]> post(byte[] body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(service).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Every response payload is valid against the contract's schema: what a JAX-WS client would bind. */
    @Test
    void responsesValidateAgainstTheContractSchema() throws Exception {
        javax.xml.validation.Validator validator = javax.xml.validation.SchemaFactory
                .newInstance(javax.xml.XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(new javax.xml.transform.stream.StreamSource(new java.io.StringReader(PerfContract.schema())))
                .newValidator();
        List<String> requests = List.of(TestMessages.complexTypeRequest(1, 7), TestMessages.complexTypeRequest(3, 8),
                TestMessages.stringRequest(TestMessages.stringValue(1)), TestMessages.base64Request(TestMessages.base64Value(1)));
        for (String request : requests) {
            HttpResponse<byte[]> response = post(request);
            assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
            Element payload = TestMessages.payload(TestMessages.parse(response.body()));
            validator.validate(new javax.xml.transform.dom.DOMSource(payload));
        }
    }

    @Test
    void echoesComplexTypesAtPacketSizesOneAndFive() throws Exception {
        for (int p : new int[] {1, 5}) {
            String request = TestMessages.complexTypeRequest(p, 1_000_000 + p);
            HttpResponse<byte[]> response = post(request);
            assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/xml"));
            Element answer = TestMessages.payload(TestMessages.parse(response.body()));
            assertEquals("echoComplexTypeDocResponse", answer.getLocalName());
            assertEquals(PerfContract.TYPES_NAMESPACE, answer.getNamespaceURI());
            List<Element> parts = TestMessages.children(answer);
            assertEquals(List.of("return", "idout"), parts.stream().map(Element::getLocalName).toList());
            assertEquals(String.valueOf(1_000_000 + p), parts.get(1).getTextContent());
            Element sent = TestMessages.firstElement(TestMessages.payload(TestMessages.parse(request)));
            assertEquals(p, TestMessages.children(parts.get(0)).size());
            assertEquals(TestMessages.leaves(sent), TestMessages.leaves(parts.get(0)));
        }
    }

    @Test
    void echoesStringsAtPacketSizesOneAndFive() throws Exception {
        for (int p : new int[] {1, 5}) {
            String value = TestMessages.stringValue(p);
            assertEquals(1024 * p, value.length());
            HttpResponse<byte[]> response = post(TestMessages.stringRequest(value));
            assertEquals(200, response.statusCode());
            Element answer = TestMessages.payload(TestMessages.parse(response.body()));
            assertEquals("echoStringDocResponse", answer.getLocalName());
            Element out = TestMessages.firstElement(answer);
            assertEquals("out", out.getLocalName());
            assertEquals(PerfContract.TYPES_NAMESPACE, out.getNamespaceURI());
            assertEquals(value, out.getTextContent());
        }
    }

    @Test
    void echoesBase64AtPacketSizesOneAndFive() throws Exception {
        for (int p : new int[] {1, 5}) {
            byte[] value = TestMessages.base64Value(p);
            HttpResponse<byte[]> response = post(TestMessages.base64Request(value));
            assertEquals(200, response.statusCode());
            Element answer = TestMessages.payload(TestMessages.parse(response.body()));
            assertEquals("echoBase64DocResponse", answer.getLocalName());
            assertArrayEquals(value, Base64.getMimeDecoder().decode(TestMessages.firstElement(answer).getTextContent()));
        }
    }

    /** GETs ?wsdl, asserts that its soap:address is the server's real one, and returns it for more checks. */
    protected Document assertWsdlCarriesTheRealAddress() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(service + "?wsdl")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        Document wsdl = TestMessages.parse(response.body());
        String location = ((Element) wsdl.getElementsByTagNameNS("http://schemas.xmlsoap.org/wsdl/soap/", "address").item(0))
                .getAttribute("location");
        assertEquals("http://127.0.0.1:" + server.port() + PerfContract.SERVICE_PATH, location);
        return wsdl;
    }

    /** Sends a hostile request and asserts a quick SOAP 1.1 fault, then that the server still works. */
    protected String assertQuickFault(byte[] body) throws Exception {
        long start = System.nanoTime();
        HttpResponse<byte[]> response = post(body);
        long millis = (System.nanoTime() - start) / 1_000_000;
        String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(500, response.statusCode(), text);
        // A refusal takes milliseconds (a second or two on a cold JVM on a busy machine); an entity bomb expanded
        // before a limit stopped it takes far longer and gigabytes, so 10 s tells the two apart on any machine.
        assertTrue(millis < 10_000, "fault took " + millis + " ms");
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/xml"), text);
        Element fault = TestMessages.payload(TestMessages.parse(response.body()));
        assertEquals("Fault", fault.getLocalName());
        assertEquals(PerfContract.SOAP11_ENVELOPE_NAMESPACE, fault.getNamespaceURI());
        assertFalse(text.contains("<html"), text);
        assertEquals(200, post(TestMessages.complexTypeRequest(1, 7)).statusCode(), "server still answers");
        return text;
    }

    protected String assertQuickFault(String xml) throws Exception {
        return assertQuickFault(xml.getBytes(StandardCharsets.UTF_8));
    }

    /** A DOCTYPE whose external entity names a file in {@code dir}: a quick fault that never shows the file. */
    protected String assertExternalEntityIsAFault(Path dir) throws Exception {
        Path secret = dir.resolve("secret.txt");
        Files.writeString(secret, "SECRET-FROM-DISK");
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE s:Envelope [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>"
                + TestMessages.stringRequest("@@").replace("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "").replace("@@", "&x;");
        String fault = assertQuickFault(xxe);
        assertFalse(fault.contains("SECRET-FROM-DISK"), fault);
        return fault;
    }

    @Test
    void entityBombIsAQuickFault() throws Exception {
        StringBuilder dtd = new StringBuilder("<!DOCTYPE s:Envelope [<!ENTITY a0 \"lollollollollol\">");
        for (int i = 1; i <= 12; i++) {
            dtd.append("<!ENTITY a").append(i).append(" \"").append(("&a" + (i - 1) + ";").repeat(10)).append("\">");
        }
        dtd.append("]>");
        assertQuickFault(dtd + TestMessages.stringRequest("@@").replace("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "")
                .replace("@@", "&a12;"));
    }

    /** An operation in another namespace, and a SOAP 1.2 envelope (VersionMismatch: the service is SOAP 1.1). */
    @Test
    void wrongNamespacesAreFaults() throws Exception {
        assertQuickFault(TestMessages.envelope("<t:echoStringDoc xmlns:t=\"urn:wrong\"><t:in>x</t:in></t:echoStringDoc>"));
        assertTrue(assertQuickFault("<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body>"
                + "<t:echoStringDoc xmlns:t=\"" + TestMessages.T + "\"><t:in>x</t:in></t:echoStringDoc></s:Body></s:Envelope>")
                .contains("VersionMismatch"));
    }

    /** The JDK client, and with it CXF's default conduit, sends these headers with every POST. */
    @Test
    void h2cUpgradeHeadersWithABodyAreAnsweredOverHttp11() throws Exception {
        H2cProbes.assertUpgradeWithBodyAnsweredOverHttp11(server.port());
    }

    @Test
    void maxRequestsPerConnectionClosesTheConnection() throws Exception {
        StartedServer limited = stack().startOnLoopback("--max-requests-per-connection", "2");
        try (RawHttp raw = new RawHttp(limited.port())) {
            byte[] body = TestMessages.complexTypeRequest(1, 1).getBytes(StandardCharsets.UTF_8);
            String head = "POST " + PerfContract.SERVICE_PATH + " HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=UTF-8\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n";
            raw.send(head, body);
            RawHttp.Response first = raw.read();
            assertEquals(200, first.status());
            assertNull(first.headers().get("connection"));
            raw.send(head, body);
            RawHttp.Response second = raw.read();
            assertEquals(200, second.status(), second.text());
            assertEquals("close", second.headers().get("connection"));
            assertNull(raw.read(), "the server closes after the limit");
        } finally {
            limited.stop();
        }
    }
}

package perflab.soapecho.cxf;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import perflab.core.sut.RunningServer;
import perflab.core.sut.SutArgs;
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
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cxf stack in-process on HTTP/1.1: the three echoes, ?wsdl, hostile input, Upgrade headers, settings. */
@Timeout(60)
class CxfSoapEchoServerTest {
    private static final int MAX_REQUEST_BYTES = 256 * 1024;
    private static RunningServer server;
    private static URI service;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    static RunningServer start(String... settings) throws Exception {
        String[] args = new String[settings.length + 4];
        args[0] = "--host";
        args[1] = "127.0.0.1";
        args[2] = "--port";
        args[3] = "0";
        System.arraycopy(settings, 0, args, 4, settings.length);
        return CxfSoapEchoServer.start(SutArgs.parse(args, CxfSettings.NAMES));
    }

    @BeforeAll
    static void startServer() throws Exception {
        server = start("--max-request-bytes", String.valueOf(MAX_REQUEST_BYTES), "--server-threads", "16");
        service = URI.create("http://127.0.0.1:" + server.port() + PerfContract.SERVICE_PATH);
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop();
    }

    static HttpResponse<byte[]> post(String xml) throws Exception {
        return post(xml.getBytes(StandardCharsets.UTF_8));
    }

    static HttpResponse<byte[]> post(byte[] body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(service).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
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

    @Test
    void wsdlCarriesTheRealAddress() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(service + "?wsdl")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        Document wsdl = TestMessages.parse(response.body());
        String location = ((Element) wsdl.getElementsByTagNameNS("http://schemas.xmlsoap.org/wsdl/soap/", "address").item(0))
                .getAttribute("location");
        assertEquals("http://127.0.0.1:" + server.port() + PerfContract.SERVICE_PATH, location);
        assertEquals(3, wsdl.getElementsByTagNameNS("http://schemas.xmlsoap.org/wsdl/", "operation").getLength() / 2);
    }

    /** Sends a hostile request and asserts a quick SOAP 1.1 fault, then that the server still works. */
    private static String assertQuickFault(byte[] body) throws Exception {
        long start = System.nanoTime();
        HttpResponse<byte[]> response = post(body);
        long millis = (System.nanoTime() - start) / 1_000_000;
        String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(500, response.statusCode(), text);
        assertTrue(millis < 2_000, "fault took " + millis + " ms");
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/xml"), text);
        Element fault = TestMessages.payload(TestMessages.parse(response.body()));
        assertEquals("Fault", fault.getLocalName());
        assertEquals(PerfContract.SOAP11_ENVELOPE_NAMESPACE, fault.getNamespaceURI());
        assertFalse(text.contains("<html"), text);
        assertEquals(200, post(TestMessages.complexTypeRequest(1, 7)).statusCode(), "server still answers");
        return text;
    }

    private static String assertQuickFault(String xml) throws Exception {
        return assertQuickFault(xml.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void malformedXmlIsAFault() throws Exception {
        assertTrue(assertQuickFault("<s:Envelope xmlns:s=\"" + TestMessages.SOAP + "\"><s:Body><oops").contains("Client"));
        assertQuickFault("not xml at all");
        assertQuickFault(TestMessages.complexTypeRequest(1, 1).replace("</t:in>", "</t:wrong></t:in>"));
    }

    @Test
    void externalEntitiesAreNeverResolved(@TempDir Path dir) throws Exception {
        Path secret = dir.resolve("secret.txt");
        Files.writeString(secret, "SECRET-FROM-DISK");
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE s:Envelope [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>"
                + TestMessages.stringRequest("@@").replace("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "").replace("@@", "&x;");
        String fault = assertQuickFault(xxe);
        assertFalse(fault.contains("SECRET-FROM-DISK"), fault);
        assertTrue(fault.contains("DTD"), fault);
        // an entity without any DOCTYPE is undeclared: CXF (entity replacement off) drops the reference and
        // echoes an empty string, where the lean stack answers with a fault; either way nothing is looked up
        HttpResponse<byte[]> undeclared = post(TestMessages.stringRequest("@@").replace("@@", "&x;"));
        String text = new String(undeclared.body(), StandardCharsets.UTF_8);
        assertEquals(200, undeclared.statusCode(), text);
        assertTrue(text.contains("<out></out>") || text.contains("<out/>"), text);
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

    @Test
    void unknownOperationAndWrongNamespacesAreFaults() throws Exception {
        assertTrue(assertQuickFault(TestMessages.envelope("<t:echoNothing xmlns:t=\"" + TestMessages.T + "\"/>"))
                .contains("echoNothing"));
        assertQuickFault(TestMessages.envelope("<t:echoStringDoc xmlns:t=\"urn:wrong\"><t:in>x</t:in></t:echoStringDoc>"));
        assertTrue(assertQuickFault("<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body>"
                + "<t:echoStringDoc xmlns:t=\"" + TestMessages.T + "\"><t:in>x</t:in></t:echoStringDoc></s:Body></s:Envelope>")
                .contains("VersionMismatch"));
        assertQuickFault("<x:Envelope xmlns:x=\"urn:not-soap\"><x:Body/></x:Envelope>");
    }

    @Test
    void oversizeBodyIsAFault() throws Exception {
        assertQuickFault(TestMessages.stringRequest("x".repeat(MAX_REQUEST_BYTES + 1000)));
    }

    /** CXF's default JDK-HttpClient conduit sends these headers with every POST: CXF's engine must answer over HTTP/1.1. */
    @Test
    void h2cUpgradeHeadersWithABodyAreAnsweredOverHttp11() throws Exception {
        assertUpgradeWithBodyAnsweredOverHttp11(server.port());
    }

    static void assertUpgradeWithBodyAnsweredOverHttp11(int port) throws Exception {
        byte[] body = TestMessages.complexTypeRequest(1, 4242).getBytes(StandardCharsets.UTF_8);
        String upgrade = "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n"
                + "Content-Type: text/xml; charset=UTF-8\r\nSOAPAction: \"\"\r\n";
        try (RawHttp raw = new RawHttp(port)) {
            raw.send("POST " + PerfContract.SERVICE_PATH + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + upgrade
                    + "Content-Length: " + body.length + "\r\n\r\n", body);
            RawHttp.Response response = raw.read();
            assertNotNull(response, "no response");
            assertEquals(200, response.status(), response.text());
            assertTrue(response.text().contains("idout>4242<"), response.text());
            // and the same with a chunked body, on the same (still HTTP/1.1) connection
            String chunked = Integer.toHexString(body.length) + "\r\n" + new String(body, StandardCharsets.UTF_8) + "\r\n0\r\n\r\n";
            raw.send("POST " + PerfContract.SERVICE_PATH + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + upgrade
                    + "Transfer-Encoding: chunked\r\n\r\n", chunked.getBytes(StandardCharsets.UTF_8));
            RawHttp.Response second = raw.read();
            assertNotNull(second, "no response to the chunked request");
            assertEquals(200, second.status(), second.text());
            assertTrue(second.text().contains("idout>4242<"), second.text());
        }
    }

    @Test
    void maxRequestsPerConnectionClosesTheConnection() throws Exception {
        RunningServer limited = start("--max-requests-per-connection", "2");
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

    @Test
    void accessLogAndMetricsCountRequests(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("access.log");
        CxfSoapEchoServer.Running observed = (CxfSoapEchoServer.Running) start("--access-log", "on",
                "--access-log-file", log.toString(), "--server-metrics", "on");
        try (RawHttp raw = new RawHttp(observed.port())) {
            byte[] body = TestMessages.complexTypeRequest(1, 1).getBytes(StandardCharsets.UTF_8);
            raw.send("POST " + PerfContract.SERVICE_PATH + " HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=UTF-8\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n", body);
            assertEquals(200, raw.read().status());
        } finally {
            observed.stop();
        }
        assertEquals(1, observed.metrics().requests());
        assertEquals(0, observed.metrics().http2Requests());
        assertTrue(observed.metrics().summaryLine().startsWith("PERFLAB-METRICS requests=1 h2=0 faults=0 "),
                observed.metrics().summaryLine());
        String lines = Files.readString(log);
        assertTrue(lines.contains("\"POST " + PerfContract.SERVICE_PATH + " HTTP/1.1\" 200"), lines);
    }

    @Test
    void badSettingsAreOneLineErrors() {
        IllegalArgumentException http = assertThrows(IllegalArgumentException.class, () -> start("--http", "h3"));
        assertEquals("--http must be http1 or h2c, got 'h3'", http.getMessage());
        assertThrows(IllegalArgumentException.class, () -> start("--server-threads", "2"));
        assertThrows(IllegalArgumentException.class, () -> start("--max-request-bytes", "10"));
    }
}

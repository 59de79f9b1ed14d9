package perflab.soapecho.cxf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import perflab.core.sut.StartedServer;
import perflab.soapecho.contract.PerfContract;
import perflab.soapecho.testkit.InProcessStack;
import perflab.soapecho.testkit.RawHttp;
import perflab.soapecho.testkit.SoapEchoStackTest;
import perflab.soapecho.testkit.TestMessages;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cxf stack in-process on HTTP/1.1: what every stack does ({@link SoapEchoStackTest}), CXF's own answers, settings. */
class CxfSoapEchoServerTest extends SoapEchoStackTest {
    @Override
    protected InProcessStack stack() {
        return CxfSoapEchoServer::start;
    }

    @Test
    void wsdlCarriesTheRealAddress() throws Exception {
        Document wsdl = assertWsdlCarriesTheRealAddress();
        assertEquals(3, wsdl.getElementsByTagNameNS("http://schemas.xmlsoap.org/wsdl/", "operation").getLength() / 2);
    }

    @Test
    void malformedXmlIsAFault() throws Exception {
        assertTrue(assertQuickFault("<s:Envelope xmlns:s=\"" + TestMessages.SOAP + "\"><s:Body><oops").contains("Client"));
        assertQuickFault("not xml at all");
        assertQuickFault(TestMessages.complexTypeRequest(1, 1).replace("</t:in>", "</t:wrong></t:in>"));
    }

    @Test
    void externalEntitiesAreNeverResolved(@TempDir Path dir) throws Exception {
        String fault = assertExternalEntityIsAFault(dir);
        assertTrue(fault.contains("DTD"), fault);
        // an entity without any DOCTYPE is undeclared: CXF (entity replacement off) drops the reference and
        // echoes an empty string, where the lean stack answers with a fault; either way nothing is looked up
        HttpResponse<byte[]> undeclared = post(TestMessages.stringRequest("@@").replace("@@", "&x;"));
        String text = new String(undeclared.body(), StandardCharsets.UTF_8);
        assertEquals(200, undeclared.statusCode(), text);
        assertTrue(text.contains("<out></out>") || text.contains("<out/>"), text);
    }

    @Test
    void unknownOperationAndNonSoapEnvelopeAreFaults() throws Exception {
        assertTrue(assertQuickFault(TestMessages.envelope("<t:echoNothing xmlns:t=\"" + TestMessages.T + "\"/>"))
                .contains("echoNothing"));
        assertQuickFault("<x:Envelope xmlns:x=\"urn:not-soap\"><x:Body/></x:Envelope>");
    }

    @Test
    void oversizeBodyIsAFault() throws Exception {
        assertQuickFault(TestMessages.stringRequest("x".repeat(MAX_REQUEST_BYTES + 1000)));
    }

    @Test
    void accessLogAndMetricsCountRequests(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("access.log");
        StartedServer observed = stack().startOnLoopback("--access-log", "on",
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
        IllegalArgumentException http = assertThrows(IllegalArgumentException.class, () -> stack().startOnLoopback("--http", "h3"));
        assertEquals("--http must be http1 or h2c, got 'h3'", http.getMessage());
        assertThrows(IllegalArgumentException.class, () -> stack().startOnLoopback("--server-threads", "2"));
        assertThrows(IllegalArgumentException.class, () -> stack().startOnLoopback("--max-request-bytes", "10"));
    }
}

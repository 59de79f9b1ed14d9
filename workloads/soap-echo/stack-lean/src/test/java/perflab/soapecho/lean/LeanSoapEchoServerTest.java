package perflab.soapecho.lean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.soapecho.contract.PerfContract;
import perflab.soapecho.testkit.InProcessStack;
import perflab.soapecho.testkit.SoapEchoStackTest;
import perflab.soapecho.testkit.TestMessages;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lean stack in-process on HTTP/1.1: what every stack does ({@link SoapEchoStackTest}) and the lean stack's own answers. */
class LeanSoapEchoServerTest extends SoapEchoStackTest {
    @Override
    protected InProcessStack stack() {
        return LeanSoapEchoServer::start;
    }

    @Test
    void wsdlCarriesTheRealAddress() throws Exception {
        assertWsdlCarriesTheRealAddress();
        HttpResponse<String> upper = HTTP.send(HttpRequest.newBuilder(URI.create(service + "?WSDL")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(upper.body().contains(":" + server.port() + PerfContract.SERVICE_PATH));
    }

    @Test
    void malformedXmlIsAFault() throws Exception {
        assertTrue(assertQuickFault("<s:Envelope xmlns:s=\"" + TestMessages.SOAP + "\"><s:Body><oops").contains("soap:Client"));
        assertQuickFault("not xml at all");
        assertQuickFault(new byte[0]);
        assertQuickFault(TestMessages.complexTypeRequest(1, 1).replace("<t:varUByte>250", "<t:varUByte>x250"));
        assertQuickFault(TestMessages.complexTypeRequest(1, 1).replace("<t:varEnum>RED", "<t:varEnum>PINK"));
        assertQuickFault(TestMessages.complexTypeRequest(1, 1).replace("</t:in>", "<t:surprise/></t:in>"));
    }

    @Test
    void externalEntitiesAreNeverResolved(@TempDir Path dir) throws Exception {
        String fault = assertExternalEntityIsAFault(dir);
        assertTrue(fault.contains("DOCTYPE"), fault);
        // entity without any DOCTYPE: undeclared, never looked up
        assertFalse(assertQuickFault(TestMessages.stringRequest("@@").replace("@@", "&x;")).contains("SECRET"));
    }

    @Test
    void unknownOperationAndWrongChildNamespaceAreFaults() throws Exception {
        assertTrue(assertQuickFault(TestMessages.envelope("<t:echoNothing xmlns:t=\"" + TestMessages.T + "\"/>"))
                .contains("unknown operation"));
        assertQuickFault(TestMessages.envelope("<echoStringDoc xmlns=\"" + TestMessages.T + "\"><in xmlns=\"urn:x\">a</in></echoStringDoc>"));
    }

    @Test
    void oversizeBodyIsAFault() throws Exception {
        String big = TestMessages.stringRequest("x".repeat(MAX_REQUEST_BYTES + 1000));
        assertTrue(assertQuickFault(big).contains("exceeds"));
    }

    @Test
    void otherPathsAndMethodsAnswerPlainly() throws Exception {
        HttpResponse<String> notFound = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/nope")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, notFound.statusCode());
        assertFalse(notFound.body().contains("<html"));
        HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(service).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(500, get.statusCode());
        assertTrue(get.body().contains("Fault>"));
    }
}

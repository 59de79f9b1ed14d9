package perflab.claims.testkit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Element;
import perflab.claims.ExpectedAnswer;
import perflab.claims.backend.ClaimServicesBackend;
import perflab.claims.contract.ClaimMessages;
import perflab.claims.contract.ClaimsContract;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.claims.backend.GatewaySettings;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every claims gateway stack must do, run against each one in process in front of a back end in process
 * (so the test can count what reached it): every mediation end to end with both directions checked on the
 * parsed XML, routing to each region, the context value, authorization, failures and hostile input. A stack's
 * test extends this and says how its gateway starts.
 */
@Timeout(180)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class GatewayContractTest {
    private ClaimServicesBackend backend;
    private StartedServer gateway;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** Starts the stack's gateway in this JVM from its SUT arguments (GatewaySettings.NAMES). */
    protected abstract StartedServer start(SutArgs args) throws Exception;

    @BeforeAll
    void start() throws Exception {
        backend = ClaimServicesBackend.start(new ServerSettings("127.0.0.1", 0, 32, ServerSettings.DEFAULT_MAX_REQUEST_BYTES,
                0, false, "access.log", false, ServerSettings.Http.HTTP1));
        // a back-end timeout no call here comes near, however slow a cold JVM on a busy machine is; the timeout
        // itself is tested on a gateway of its own
        gateway = startGateway("--backend-url", "http://127.0.0.1:" + backend.port(), "--backend-timeout", "30s",
                "--max-request-bytes", Integer.toString(256 * 1024), "--server-threads", "16");
    }

    protected StartedServer startGateway(String... settings) throws Exception {
        String[] args = new String[settings.length + 4];
        System.arraycopy(new String[] {"--host", "127.0.0.1", "--port", "0"}, 0, args, 0, 4);
        System.arraycopy(settings, 0, args, 4, settings.length);
        return start(SutArgs.parse(args, GatewaySettings.NAMES));
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.stop();
        }
        if (backend != null) {
            backend.stop();
        }
    }

    static HttpResponse<byte[]> post(StartedServer server, String mediation, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + ClaimsContract.mediationPath(mediation)))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "text/xml; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static ClaimMessages.Request request(String mediation, String region, ClaimMessages.RoutingPosition position,
                                                 int requestBytes, int responseBytes) {
        return switch (mediation) {
            case ClaimsContract.PASSTHROUGH -> ClaimMessages.build(ClaimMessages.Spec.of(ClaimsContract.CREATE_CLAIM,
                    ClaimMessages.Dialect.CLAIMS, requestBytes, responseBytes));
            case ClaimsContract.TRANSFORM_VALUE -> ClaimMessages.build(ClaimMessages.Spec.of(ClaimsContract.UPDATE_CLAIM,
                    ClaimMessages.Dialect.CLAIMS, requestBytes, responseBytes));
            case ClaimsContract.TRANSFORM_NAMESPACE -> ClaimMessages.build(ClaimMessages.Spec.of(ClaimsContract.CHECK_COVERAGE,
                    ClaimMessages.Dialect.CLAIMS_V2, requestBytes, responseBytes));
            case ClaimsContract.TRANSFORM_SCHEMA -> ClaimMessages.build(ClaimMessages.Spec.of(ClaimsContract.CREATE_CLAIM,
                    ClaimMessages.Dialect.PARTNER, requestBytes, responseBytes));
            case ClaimsContract.ROUTE_ON_BODY -> ClaimMessages.build(ClaimMessages.Spec.of(ClaimsContract.LIST_REPAIR_SHOPS,
                    ClaimMessages.Dialect.CLAIMS, requestBytes, responseBytes).withRegion(region, position));
            default -> ClaimMessages.build(ClaimMessages.Spec.of(ClaimsContract.APPROVE_CLAIM, ClaimMessages.Dialect.CLAIMS,
                    requestBytes, responseBytes).withRegion(region, position).withPassword(ClaimsContract.PASSWORD));
        };
    }

    private void assertMediated(String mediation, String region, ClaimMessages.RoutingPosition position,
                                       int requestBytes, int responseBytes) throws Exception {
        ClaimMessages.Request r = request(mediation, region, position, requestBytes, responseBytes);
        long id = 1_234_567L + requestBytes + region.hashCode() % 1000;
        HttpResponse<byte[]> response = post(gateway, mediation, r.withId(id));
        String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(200, response.statusCode(), text);
        assertNull(new ExpectedAnswer(mediation, r, ClaimsContract.serviceName(region)).mismatch(response.body(), id),
                mediation + " " + region + ": " + (text.length() > 600 ? text.substring(0, 600) : text));
        // the answer's size follows the asked response size (the back end's envelope; transforms change it a little)
        assertTrue(response.body().length > responseBytes / 2 && response.body().length < responseBytes * 2,
                mediation + ": " + response.body().length + " bytes for " + responseBytes);
    }

    @Test
    void everyMediationWorksBothWaysAtTheStudysSizes() throws Exception {
        int[][] sizes = {{3 * 1024, 3 * 1024}, {3 * 1024, 10 * 1024}, {10 * 1024, 3 * 1024}, {100 * 1024, 100 * 1024}};
        for (String mediation : ClaimsContract.MEDIATIONS) {
            for (int[] size : sizes) {
                assertMediated(mediation, ClaimsContract.DEFAULT_REGION, ClaimMessages.RoutingPosition.EARLY, size[0], size[1]);
            }
        }
    }

    @Test
    void routingReachesEachRegionalServiceWithTheFieldEarlyOrLate() throws Exception {
        for (String mediation : new String[] {ClaimsContract.ROUTE_ON_BODY, ClaimsContract.COMPOSITE}) {
            for (String region : ClaimsContract.REGIONS) {
                for (ClaimMessages.RoutingPosition position : ClaimMessages.RoutingPosition.values()) {
                    assertMediated(mediation, region, position, 10 * 1024, 3 * 1024);
                }
            }
        }
    }

    @Test
    void transformSchemaCarriesTheTrackingRefThroughTheContextNotTheBackEnd() throws Exception {
        ClaimMessages.Request r = request(ClaimsContract.TRANSFORM_SCHEMA, "north", ClaimMessages.RoutingPosition.EARLY, 3072, 3072);
        HttpResponse<byte[]> response = post(gateway, ClaimsContract.TRANSFORM_SCHEMA, r.withId(987_654_321L));
        Element ack = ExpectedAnswer.payload(response.body());
        assertEquals(ClaimsContract.PARTNER_NS, ack.getNamespaceURI());
        assertEquals("0987654321", ack.getElementsByTagNameNS(ClaimsContract.PARTNER_NS, ClaimsContract.CONTEXT_FIELD).item(0).getTextContent());
        // the back end saw the partner's message id as requestId, never the tracking reference
        Element handled = (Element) ack.getElementsByTagNameNS(ClaimsContract.PARTNER_NS, "HandledBy").item(0);
        assertEquals(r.messageId(), handled.getAttribute("messageId"));
    }

    @Test
    void compositeRefusesAWrongOrMissingPasswordBeforeAnyBackEnd() throws Exception {
        String wrong = ClaimMessages.build(ClaimMessages.Spec.of(ClaimsContract.APPROVE_CLAIM, ClaimMessages.Dialect.CLAIMS,
                3072, 3072).withRegion("south", ClaimMessages.RoutingPosition.EARLY).withPassword("guess")).withId(1);
        String none = ClaimMessages.build(ClaimMessages.Spec.of(ClaimsContract.APPROVE_CLAIM, ClaimMessages.Dialect.CLAIMS,
                3072, 3072).withRegion("south", ClaimMessages.RoutingPosition.EARLY)).withId(2);
        assertRefused(ClaimsContract.COMPOSITE, wrong, "Client", "wrong password");
        assertRefused(ClaimsContract.COMPOSITE, none, "Client", "no password");
    }

    @Test
    void unknownRegionAndWrongSchemaAreClientFaults() throws Exception {
        String mars = request(ClaimsContract.ROUTE_ON_BODY, "mars", ClaimMessages.RoutingPosition.EARLY, 3072, 3072).withId(3);
        assertRefused(ClaimsContract.ROUTE_ON_BODY, mars, "Client", "region 'mars'");
        String v1 = request(ClaimsContract.PASSTHROUGH, "north", ClaimMessages.RoutingPosition.EARLY, 3072, 3072).withId(4);
        assertRefused(ClaimsContract.TRANSFORM_NAMESPACE, v1, "Client", ClaimsContract.CLAIMS_V2_NS);
    }

    static final String XXE = "<?xml version=\"1.0\"?><!DOCTYPE e [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>"
            + "<soap:Envelope xmlns:soap=\"" + ClaimsContract.SOAP11_NS + "\"><soap:Body><cs:createClaim xmlns:cs=\""
            + ClaimsContract.CLAIMS_NS + "\"><cs:requestId>&xxe;</cs:requestId></cs:createClaim></soap:Body></soap:Envelope>";
    static final String BOMB;

    static {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">");
        for (int i = 1; i <= 9; i++) {
            b.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i == 1 ? "" : i - 1) + ";").repeat(10)).append("\">");
        }
        b.append("]><soap:Envelope xmlns:soap=\"").append(ClaimsContract.SOAP11_NS).append("\"><soap:Body><cs:createClaim xmlns:cs=\"")
                .append(ClaimsContract.CLAIMS_NS).append("\"><cs:region>&lol9;</cs:region></cs:createClaim></soap:Body></soap:Envelope>");
        BOMB = b.toString();
    }

    static final String MALFORMED = "<soap:Envelope xmlns:soap=\"" + ClaimsContract.SOAP11_NS + "\"><soap:Body><cs:createClaim xmlns:cs=\""
            + ClaimsContract.CLAIMS_NS + "\"><cs:requestId>1</cs:requestIdd><cs:region>north</cs:region>";
    static final String MALFORMED_HEAD = "<soap:Envelope xmlns:soap=\"" + ClaimsContract.SOAP11_NS + "\"><soap:Header><h></soap:Header>"
            + "<soap:Body><cs:createClaim xmlns:cs=\"" + ClaimsContract.CLAIMS_NS + "\"/></soap:Body></soap:Envelope>";
    static final String UNDECLARED_ENTITY = "<soap:Envelope xmlns:soap=\"" + ClaimsContract.SOAP11_NS + "\"><soap:Body><cs:createClaim xmlns:cs=\""
            + ClaimsContract.CLAIMS_NS + "\"><cs:requestId>&x;</cs:requestId><cs:region>north</cs:region></cs:createClaim></soap:Body></soap:Envelope>";

    @Test
    void hostileInputIsRefusedWithAFaultAndNeverReachesTheBackEnd() throws Exception {
        for (String mediation : ClaimsContract.MEDIATIONS) {
            assertRefused(mediation, XXE, "Client", "DOCTYPE");
            assertRefused(mediation, BOMB, "Client", "DOCTYPE");
            // passthrough reads no further than the payload's start tag: malformed XML must come before it to be caught
            assertRefused(mediation, ClaimsContract.PASSTHROUGH.equals(mediation) ? MALFORMED_HEAD : MALFORMED, "Client", null);
            assertRefused(mediation, "this is not XML", "Client", "malformed");
            assertRefused(mediation, "", "Client", null);
        }
        for (String mediation : new String[] {ClaimsContract.ROUTE_ON_BODY, ClaimsContract.COMPOSITE, ClaimsContract.TRANSFORM_VALUE}) {
            assertRefused(mediation, UNDECLARED_ENTITY, "Client", null);
        }
        // malformed inside the payload on passthrough: the back end refuses it, and its fault is relayed
        HttpResponse<byte[]> relayed = post(gateway, ClaimsContract.PASSTHROUGH, MALFORMED);
        assertEquals(500, relayed.statusCode());
        assertTrue(new String(relayed.body(), StandardCharsets.UTF_8).contains("malformed"));
        // over --max-request-bytes (256 KB here)
        String big = request(ClaimsContract.PASSTHROUGH, "north", ClaimMessages.RoutingPosition.EARLY, 300 * 1024, 3072).withId(5);
        for (String mediation : ClaimsContract.MEDIATIONS) {
            assertRefused(mediation, big, "Client", "exceeds the limit");
        }
    }

    private void assertRefused(String mediation, String body, String code, String reason) throws Exception {
        long before = backend.received();
        HttpResponse<byte[]> response = post(gateway, mediation, body);
        String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(500, response.statusCode(), mediation + ": " + text);
        Element fault = ExpectedAnswer.payload(response.body());
        assertEquals("Fault", fault.getLocalName(), text);
        assertTrue(fault.getElementsByTagName("faultcode").item(0).getTextContent().endsWith(code), text);
        if (reason != null) {
            assertTrue(text.contains(reason), mediation + ": " + text);
        }
        assertEquals(before, backend.received(), mediation + ": the refused message reached the back end");
    }

    /**
     * A back end that answers after 5 s, behind a 1.5 s timeout: the fault comes no sooner than the timeout and
     * before the back end would have answered, which is what a gateway that waited for it could not do.
     */
    @Test
    void backEndFaultsAndSlownessBecomeFaultsQuickly() throws Exception {
        StartedServer impatient = startGateway("--backend-url", "http://127.0.0.1:" + backend.port(),
                "--backend-timeout", "1500ms");
        try {
            backEndFaultsAndSlownessBecomeFaults(impatient);
        } finally {
            impatient.stop();
        }
    }

    private void backEndFaultsAndSlownessBecomeFaults(StartedServer gateway) throws Exception {
        for (String mediation : ClaimsContract.MEDIATIONS) {
            ClaimMessages.Spec spec = request(mediation, "west", ClaimMessages.RoutingPosition.EARLY, 3072, 3072).spec();
            HttpResponse<byte[]> faulted = post(gateway, mediation, ClaimMessages.build(spec.withPolicy("POL-FAULT-1")).withId(6));
            String text = new String(faulted.body(), StandardCharsets.UTF_8);
            assertEquals(500, faulted.statusCode(), text);
            assertTrue(text.contains("is not on file"), text);
            ExpectedAnswer.payload(faulted.body());

            long start = System.nanoTime();
            HttpResponse<byte[]> slow = post(gateway, mediation, ClaimMessages.build(spec.withPolicy("POL-SLOW-5000")).withId(7));
            long millis = (System.nanoTime() - start) / 1_000_000;
            text = new String(slow.body(), StandardCharsets.UTF_8);
            assertEquals(500, slow.statusCode(), text);
            assertTrue(text.contains("did not answer within 1500 ms"), text);
            assertTrue(millis >= 1500 && millis < 5000, "the timeout fault took " + millis + " ms");
        }
    }

    @Test
    void aBackEndThatIsDownGivesAServerFaultQuickly() throws Exception {
        int closedPort = perflab.core.process.LocalSockets.freePort(); // nothing listens there
        // refused connections fail at once: a fault well inside the timeout shows the gateway did not wait for it
        StartedServer orphan = startGateway("--backend-url", "http://127.0.0.1:" + closedPort, "--backend-timeout", "10s");
        try {
            for (String mediation : ClaimsContract.MEDIATIONS) {
                String body = request(mediation, "south", ClaimMessages.RoutingPosition.EARLY, 3072, 3072).withId(8);
                long start = System.nanoTime();
                HttpResponse<byte[]> response = post(orphan, mediation, body);
                long millis = (System.nanoTime() - start) / 1_000_000;
                String text = new String(response.body(), StandardCharsets.UTF_8);
                assertEquals(500, response.statusCode(), text);
                assertTrue(text.contains("soap:Server") && text.contains("unreachable"), text);
                assertTrue(millis < 10_000, mediation + " took " + millis + " ms");
            }
        } finally {
            orphan.stop();
        }
    }

    @Test
    void h2cIsRefusedInOneLineNotServedAsHttp1() {
        // an external back end that is never called: the refusal comes before anything starts
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> startGateway("--backend-url", "http://127.0.0.1:9", "--http", "h2c"));
        String reason = refused.getMessage();
        assertTrue(reason.contains("HTTP/1.1 only") && reason.endsWith("use --http http1"), reason);
        assertFalse(reason.contains("\n"), reason);
    }

    @Test
    void sameJvmBackEndServesTheGateway() throws Exception {
        StartedServer same = startGateway("--backend", "same-jvm");
        try {
            ClaimMessages.Request r = request(ClaimsContract.COMPOSITE, "west", ClaimMessages.RoutingPosition.LATE, 3072, 3072);
            HttpResponse<byte[]> response = post(same, ClaimsContract.COMPOSITE, r.withId(9));
            assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
            assertNull(new ExpectedAnswer(ClaimsContract.COMPOSITE, r, "claims-west").mismatch(response.body(), 9));
        } finally {
            same.stop();
        }
    }
}

package perflab.soapecho.cxf;

import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Holder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import perflab.core.sut.StartedServer;
import perflab.soapecho.contract.PerfContract;
import perflab.soapecho.cxf.generated.DocPortType;
import perflab.soapecho.cxf.generated.PerfService;
import perflab.soapecho.cxf.generated.types.ColourEnum;
import perflab.soapecho.cxf.generated.types.NestedComplexType;
import perflab.soapecho.cxf.generated.types.NestedComplexTypeSeq;
import perflab.soapecho.cxf.generated.types.SimpleStruct;
import perflab.soapecho.lean.LeanSoapEchoServer;
import perflab.soapecho.testkit.InProcessStack;
import perflab.testsupport.Poll;

import javax.xml.datatype.DatatypeFactory;
import javax.xml.namespace.QName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URL;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Interoperability: CXF's JAX-WS client, generated from the same perf.wsdl, calls every operation of each
 * stack, and each server's own count says which HTTP version the calls used. CXF's default conduit (the JDK
 * HttpClient) sends every POST with Upgrade: h2c and a body, which both stacks answer over HTTP/1.1;
 * forceVersion=2 makes the conduit upgrade with a bodiless OPTIONS first and then post over HTTP/2. Each
 * port gets its own HttpClient here: CXF shares one per configuration by default, and a shared client may
 * already hold an HTTP/2 connection that an earlier bodiless request (a ?wsdl GET) upgraded, which is how
 * CXF's harness client, reading ?wsdl first, can end up posting over h2c. The lean stack runs in-process
 * here, on this module's Jetty (12.1.11).
 */
@Timeout(60)
class InteropTest {
    private static final Map<String, StartedServer> SERVERS = new HashMap<>();

    @BeforeAll
    static void start() throws Exception {
        InProcessStack lean = LeanSoapEchoServer::start;
        InProcessStack cxf = CxfSoapEchoServer::start;
        for (String http : List.of("http1", "h2c")) {
            SERVERS.put("lean/" + http, lean.startOnLoopback("--http", http, "--server-metrics", "on"));
            SERVERS.put("cxf/" + http, cxf.startOnLoopback("--http", http, "--server-metrics", "on"));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (StartedServer server : SERVERS.values()) {
            server.stop();
        }
    }

    @ParameterizedTest(name = "{0} {1}, WSDL from {2}, client HTTP version {3}: {4} calls over HTTP/2")
    @CsvSource({
            "lean, http1, server, auto, 0", "lean, h2c, classpath, auto, 0", "lean, h2c, server, auto, 0",
            "lean, h2c,   server, 2,    5", "lean, h2c, server,    1.1,  0", "lean, http1, server, 2, 0",
            "cxf,  http1, server, auto, 0", "cxf,  h2c, classpath, auto, 0", "cxf,  h2c, server, auto, 0",
            "cxf,  h2c,   server, 2,    5", "cxf,  h2c, server,    1.1,  0", "cxf,  http1, server, 2, 0"})
    void generatedClientCallsEveryOperation(String stack, String http, String wsdlFrom, String clientVersion,
                                            int overHttp2) throws Exception {
        StartedServer server = SERVERS.get(stack + "/" + http);
        String address = "http://127.0.0.1:" + server.port() + PerfContract.SERVICE_PATH;
        DocPortType port = "server".equals(wsdlFrom) ? new PerfService(new URL(address + "?wsdl")).getSoapHttpDocLitPort()
                : new PerfService().getSoapHttpDocLitPort();
        Map<String, Object> context = ((BindingProvider) port).getRequestContext();
        if ("server".equals(wsdlFrom)) {
            assertEquals(address, context.get(BindingProvider.ENDPOINT_ADDRESS_PROPERTY), "the client took the address from ?wsdl");
        } else {
            context.put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY, address);
        }
        context.put("org.apache.cxf.transport.http.forceVersion", clientVersion);
        context.put("share.httpclient.http.conduit", false);
        long http2Before = server.metrics().http2Requests();

        String text = "interop " + stack + " <&> " + "é".repeat(10);
        assertEquals(text, port.echoStringDoc(text));
        assertEquals("x".repeat(5 * 1024), port.echoStringDoc("x".repeat(5 * 1024)));
        byte[] bytes = new byte[1024];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 7);
        }
        assertArrayEquals(bytes, port.echoBase64Doc(bytes));
        for (int p : new int[] {1, 5}) {
            NestedComplexTypeSeq sent = new NestedComplexTypeSeq();
            for (int i = 0; i < p; i++) {
                sent.getItem().add(item(i));
            }
            Holder<Integer> idout = new Holder<>();
            NestedComplexTypeSeq back = port.echoComplexTypeDoc(sent, 5_000 + p, idout);
            assertEquals(5_000 + p, idout.value);
            assertEquals(describe(sent), describe(back));
        }

        // the server counts a request a moment after the client has its answer: wait for the count (the bound only
        // caps how long a wrong count takes to fail; the equality below catches one too many)
        Poll.until("the server to count " + overHttp2 + " HTTP/2 requests", java.time.Duration.ofSeconds(30),
                () -> server.metrics().http2Requests() - http2Before, n -> n >= overHttp2);
        assertEquals(http2Before + overHttp2, server.metrics().http2Requests(), "calls the server counted as HTTP/2");
    }

    static NestedComplexType item(int i) throws Exception {
        byte[] bin = new byte[PerfContract.ITEM_BINARY_BYTES];
        for (int j = 0; j < bin.length; j++) {
            bin[j] = (byte) (j + i);
        }
        SimpleStruct struct = new SimpleStruct();
        struct.setVarFloat(1.5f + i);
        struct.setVarShort((short) (32767 - i));
        struct.setVarString("struct <" + i + "> & more");
        struct.setVarByte((byte) -i);
        struct.setVarDecimal(new BigDecimal("3.14159" + i));
        struct.setVarDouble(1.7976931348623157E308);
        struct.setVarDateTime(DatatypeFactory.newInstance().newXMLGregorianCalendar("2005-12-03T10:15:3" + (i % 10) + "Z"));
        struct.setVarAttrString("attr \"" + i + "\"");
        NestedComplexType item = new NestedComplexType();
        item.setVarString("#12345ABc&" + i);
        item.setVarUByte((short) (250 + i % 6));
        item.setVarUnsignedLong(new BigInteger("1369105672" + i));
        item.setVarFloat(3.4028235E38f);
        item.setVarQName(new QName("http://cxf.apache.org", "return" + i));
        item.setVarBase64Binary(bin);
        item.setVarHexBinary(bin.clone());
        item.setVarStruct(struct);
        item.setVarEnum(ColourEnum.values()[i % 3]);
        return item;
    }

    static String describe(NestedComplexTypeSeq seq) {
        StringBuilder out = new StringBuilder();
        for (NestedComplexType t : seq.getItem()) {
            SimpleStruct s = t.getVarStruct();
            out.append(String.join("|", t.getVarString(), String.valueOf(t.getVarUByte()), String.valueOf(t.getVarUnsignedLong()),
                    String.valueOf(t.getVarFloat()), String.valueOf(t.getVarQName()), HexFormat.of().formatHex(t.getVarBase64Binary()),
                    HexFormat.of().formatHex(t.getVarHexBinary()), String.valueOf(t.getVarEnum()),
                    String.valueOf(s.getVarFloat()), String.valueOf(s.getVarShort()), s.getVarString(), String.valueOf(s.getVarByte()),
                    String.valueOf(s.getVarDecimal()), String.valueOf(s.getVarDouble()), String.valueOf(s.getVarDateTime()),
                    s.getVarAttrString())).append('\n');
        }
        assertTrue(out.length() > 0 || seq.getItem().isEmpty());
        return out.toString();
    }
}

package perflab.soapecho.testkit;

import perflab.soapecho.contract.PerfContract;

import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a server does with HTTP/2 openings on a plain socket: the prior-knowledge preface, and Upgrade: h2c with a body. */
public final class H2cProbes {
    private H2cProbes() {
    }

    /** Sends the HTTP/2 client preface and returns the first bytes of the answer (ISO-8859-1). */
    public static String prefaceAnswer(int port) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\4\0\0\0\0\0".getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * Upgrade: h2c on a POST with a sized body, then with a chunked one on the same connection, as the JDK client
     * (and so CXF's default conduit) sends every POST: both are answered over HTTP/1.1.
     */
    public static void assertUpgradeWithBodyAnsweredOverHttp11(int port) throws Exception {
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
}

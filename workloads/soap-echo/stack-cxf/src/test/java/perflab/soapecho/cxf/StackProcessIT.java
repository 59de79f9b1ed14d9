package perflab.soapecho.cxf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.soapecho.testkit.StackProcess;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Starts the packaged stack the way perflab does: its own JVM on target/stack/* only, the READY line on
 * stdout, and exit when stdin closes. Runs in {@code verify} (failsafe), after the stack is packaged.
 */
@Timeout(60)
class StackProcessIT {
    @Test
    void startsAnswersAndExitsWhenStdinCloses() throws Exception {
        try (StackProcess stack = StackProcess.start(CxfSoapEchoServer.class,
                "--host", "127.0.0.1", "--port", "0", "--server-metrics", "on", "--http", "h2c")) {
            HttpResponse<String> response = stack.postEcho4711();
            // the JDK client's default: HTTP/2 asked for by Upgrade on a POST with a body, answered over HTTP/1.1
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.body().contains("idout>4711<"), response.body());
            assertEquals(HttpClient.Version.HTTP_1_1, response.version());

            String metrics = stack.closeStdinAndAwaitExit();
            assertTrue(metrics.startsWith("PERFLAB-METRICS requests=1 h2=0 faults=0 "), metrics);
        }
    }
}

package perflab.soapecho.lean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.soapecho.testkit.StackProcess;

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
        try (StackProcess stack = StackProcess.start(LeanSoapEchoServer.class,
                "--host", "127.0.0.1", "--port", "0", "--server-metrics", "on")) {
            HttpResponse<String> response = stack.postEcho4711();
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.body().contains("idout>4711<"), response.body());

            String metrics = stack.closeStdinAndAwaitExit();
            assertTrue(metrics.startsWith("PERFLAB-METRICS requests=1 "), metrics);
        }
    }
}

package perflab.soapecho.lean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.core.sut.SutBootstrap;
import perflab.soapecho.contract.PerfContract;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Starts the packaged stack the way perflab does: its own JVM on target/stack/* only, the READY line on
 * stdout, and exit when stdin closes. Runs in {@code verify} (failsafe), after the stack is packaged.
 */
@Timeout(60)
class StackProcessIT {
    @Test
    void startsAnswersAndExitsWhenStdinCloses() throws Exception {
        Path stack = Path.of(System.getProperty("basedir", ".")).resolve("target/stack");
        assumeTrue(Files.isDirectory(stack), "the stack classpath " + stack + " is not built (mvn package)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(java, "-cp", stack.toAbsolutePath() + "/*",
                LeanSoapEchoServer.class.getName(), "--host", "127.0.0.1", "--port", "0", "--server-metrics", "on"))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String ready = out.readLine();
            assertNotNull(ready, "the stack exited without a READY line");
            assertTrue(ready.startsWith(SutBootstrap.READY + " port="), ready);
            int port = Integer.parseInt(ready.substring((SutBootstrap.READY + " port=").length()).trim());

            String id = "0000004711";
            String body = "<soap:Envelope xmlns:soap=\"" + PerfContract.SOAP11_ENVELOPE_NAMESPACE + "\"><soap:Body>"
                    + "<echoComplexTypeDoc xmlns=\"" + PerfContract.TYPES_NAMESPACE + "\"><in/><id>" + id
                    + "</id></echoComplexTypeDoc></soap:Body></soap:Envelope>";
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + PerfContract.SERVICE_PATH))
                    .timeout(Duration.ofSeconds(10)).header("Content-Type", "text/xml; charset=UTF-8")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.body().contains("idout>4711<"), response.body());

            long closedAt = System.nanoTime();
            process.getOutputStream().close();
            assertTrue(process.waitFor(10, TimeUnit.SECONDS), "the stack did not exit within 10 s of stdin closing");
            System.out.printf("stack exited %d ms after stdin closed%n", (System.nanoTime() - closedAt) / 1_000_000);
            assertEquals(0, process.exitValue());
            String metrics = out.readLine();
            assertNotNull(metrics);
            assertTrue(metrics.startsWith("PERFLAB-METRICS requests=1 "), metrics);
        } finally {
            process.destroyForcibly();
        }
    }
}

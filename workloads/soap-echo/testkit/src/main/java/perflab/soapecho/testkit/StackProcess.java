package perflab.soapecho.testkit;

import perflab.core.sut.SutBootstrap;
import perflab.soapecho.contract.PerfContract;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The packaged stack started the way perflab does: its own JVM on target/stack/* only, the READY line on stdout,
 * and exit when stdin closes. For the stacks' integration tests, which run in {@code verify} (failsafe), after
 * the stack is packaged.
 */
public final class StackProcess implements AutoCloseable {
    private final Class<?> main;
    private final Process process;
    private final BufferedReader out;
    private final int port;

    private StackProcess(Class<?> main, Process process, BufferedReader out, int port) {
        this.main = main;
        this.process = process;
        this.out = out;
        this.port = port;
    }

    /** Starts {@code main} with {@code settings}; skips the test if the stack classpath is not built. */
    public static StackProcess start(Class<?> main, String... settings) throws IOException {
        Path stack = Path.of(System.getProperty("basedir", ".")).resolve("target/stack");
        assumeTrue(Files.isDirectory(stack), "the stack classpath " + stack + " is not built (mvn package)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", stack.toAbsolutePath() + "/*", main.getName()));
        command.addAll(List.of(settings));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String ready = out.readLine();
            assertNotNull(ready, "the stack exited without a READY line");
            assertTrue(ready.startsWith(SutBootstrap.READY + " port="), ready);
            int port = Integer.parseInt(ready.substring((SutBootstrap.READY + " port=").length()).trim());
            return new StackProcess(main, process, out, port);
        } catch (IOException | RuntimeException | Error e) {
            process.destroyForcibly();
            throw e;
        }
    }

    public int port() {
        return port;
    }

    /** POSTs echoComplexTypeDoc with id 0000004711 with the JDK client's defaults (it asks for HTTP/2 by Upgrade). */
    public HttpResponse<String> postEcho4711() throws Exception {
        String body = "<soap:Envelope xmlns:soap=\"" + PerfContract.SOAP11_ENVELOPE_NAMESPACE + "\"><soap:Body>"
                + "<echoComplexTypeDoc xmlns=\"" + PerfContract.TYPES_NAMESPACE + "\"><in/><id>0000004711"
                + "</id></echoComplexTypeDoc></soap:Body></soap:Envelope>";
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + PerfContract.SERVICE_PATH))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "text/xml; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Closes the stack's stdin, asserts that it exits with status 0 within 10 s, and returns the next line it
     * printed (the metrics line with --server-metrics on).
     */
    public String closeStdinAndAwaitExit() throws Exception {
        long closedAt = System.nanoTime();
        process.getOutputStream().close();
        assertTrue(process.waitFor(10, TimeUnit.SECONDS), "the stack did not exit within 10 s of stdin closing");
        System.out.printf("%s exited %d ms after stdin closed%n", main.getSimpleName(), (System.nanoTime() - closedAt) / 1_000_000);
        assertEquals(0, process.exitValue());
        String line = out.readLine();
        assertNotNull(line);
        return line;
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}

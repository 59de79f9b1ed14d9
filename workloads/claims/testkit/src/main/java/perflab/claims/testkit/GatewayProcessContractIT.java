package perflab.claims.testkit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.claims.ExpectedAnswer;
import perflab.testsupport.Poll;
import perflab.claims.backend.BackendLauncher;
import perflab.claims.contract.ClaimMessages;
import perflab.claims.contract.ClaimsContract;
import perflab.core.sut.SutBootstrap;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A stack's packaged gateway started the way perflab starts it (its own JVM on target/stack/* only), which
 * starts the back end as its own child: both answer, and both are gone once the gateway's stdin closes. A
 * stack's IT extends this and names its main class; it runs after package.
 */
@Timeout(120)
public abstract class GatewayProcessContractIT {
    /** The stack's SUT main class. */
    protected abstract Class<?> gatewayMain();

    /** The packaged gateway's JVM on loopback, port 0, with {@code settings} besides. */
    private Process startGateway(String... settings) throws Exception {
        Path stack = Path.of(System.getProperty("basedir", ".")).resolve("target/stack");
        assumeTrue(Files.isDirectory(stack), "the stack classpath " + stack + " is not built (mvn package)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", stack.toAbsolutePath() + "/*",
                gatewayMain().getName(), "--host", "127.0.0.1", "--port", "0"));
        command.addAll(List.of(settings));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    @Test
    void h2cIsRefusedWithOneFailedLineBeforeAnyBackEndJvmStarts() throws Exception {
        Process gateway = startGateway("--http", "h2c");
        try {
            String output = new String(gateway.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(gateway.waitFor(20, TimeUnit.SECONDS));
            assertEquals(3, gateway.exitValue(), output);
            assertTrue(output.startsWith(SutBootstrap.FAILED + " ") && output.contains("HTTP/1.1 only"), output);
            assertEquals(1, output.lines().count(), "one line, and no " + BackendLauncher.BACKEND_LINE + ": " + output);
        } finally {
            gateway.destroyForcibly();
        }
    }

    @Test
    void gatewayAndItsBackEndJvmServeAndLeaveNoProcessBehind() throws Exception {
        Process gateway = startGateway("--server-metrics", "on");
        long backendPid = -1;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(gateway.getInputStream(), StandardCharsets.UTF_8));
            String line;
            int port = -1;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(BackendLauncher.BACKEND_LINE)) {
                    assertTrue(line.contains("mode=separate-jvm"), line);
                    backendPid = Long.parseLong(line.replaceAll(".* pid=(\\d+).*", "$1"));
                } else if (line.startsWith(SutBootstrap.READY)) {
                    port = Integer.parseInt(line.substring((SutBootstrap.READY + " port=").length()).trim());
                    break;
                } else {
                    assertFalse(line.startsWith(SutBootstrap.FAILED), line);
                }
            }
            assertTrue(port > 0, "no READY line");
            assertTrue(backendPid > 0 && backendPid != gateway.pid(), "no back-end pid reported");
            Optional<ProcessHandle> backend = ProcessHandle.of(backendPid);
            assertTrue(backend.isPresent() && backend.get().isAlive());
            assertEquals(gateway.pid(), backend.get().parent().map(ProcessHandle::pid).orElse(-1L));

            ClaimMessages.Request r = ClaimMessages.build(ClaimMessages.Spec.of(ClaimsContract.LIST_REPAIR_SHOPS,
                    ClaimMessages.Dialect.CLAIMS, 3072, 10240).withRegion("south", ClaimMessages.RoutingPosition.EARLY));
            HttpResponse<byte[]> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + ClaimsContract.mediationPath(ClaimsContract.ROUTE_ON_BODY)))
                    .version(HttpClient.Version.HTTP_1_1).timeout(Duration.ofSeconds(20))
                    .header("Content-Type", "text/xml; charset=UTF-8").POST(HttpRequest.BodyPublishers.ofString(r.withId(4711))).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
            assertNull(new ExpectedAnswer(ClaimsContract.ROUTE_ON_BODY, r, "claims-south").mismatch(response.body(), 4711));

            gateway.getOutputStream().close();
            assertTrue(gateway.waitFor(20, TimeUnit.SECONDS), "the gateway did not exit within 20 s of stdin closing");
            assertEquals(0, gateway.exitValue());
            String metrics = out.readLine();
            assertNotNull(metrics);
            assertTrue(metrics.startsWith("PERFLAB-METRICS requests=1 "), metrics);
            Poll.until("the back-end JVM to end with its gateway", java.time.Duration.ofSeconds(15),
                    () -> !backend.get().isAlive());
        } finally {
            gateway.destroyForcibly();
            if (backendPid > 0) {
                ProcessHandle.of(backendPid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }
}

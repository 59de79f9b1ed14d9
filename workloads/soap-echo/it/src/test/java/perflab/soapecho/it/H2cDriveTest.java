package perflab.soapecho.it;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import perflab.core.sut.StartedServer;
import perflab.core.traffic.Traffic;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workloads;
import perflab.driver.ConnectionPolicy;
import perflab.driver.DriverResult;
import perflab.driver.LoadDriver;
import perflab.driver.LoadSpec;
import perflab.soapecho.contract.PerfContract;
import perflab.soapecho.lean.LeanSoapEchoServer;
import perflab.soapecho.testkit.InProcessStack;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perflab's driver with soap-echo's traffic over h2c against the lean stack, every answer deep-checked: no error, and
 * the server's own count says HTTP/2 carried every request; and the same for scenarios/soap-echo.yaml, a scenario file
 * compiled to the same request templates, checked by its own checks. (The CLI's ProtocolsIT does the same on the platform's test
 * workload; the cxf stack's h2c is its own module's StackProcessIT and H2cTest.)
 */
class H2cDriveTest {
    private static final long REQUESTS = 300;
    /** scenarios/soap-echo.yaml's mix of the three operations, its own checks on every answer. */
    private static final String SCENARIO = "scenarios/soap-echo.yaml";

    @ParameterizedTest
    @ValueSource(strings = {PerfContract.ECHO_COMPLEX_TYPE, PerfContract.ECHO_STRING, PerfContract.ECHO_BASE64, SCENARIO})
    void everyRequestOverHttp2PassesTheDeepCheck(String operation) throws Exception {
        InProcessStack stack = LeanSoapEchoServer::start;
        StartedServer lean = stack.startOnLoopback("--server-threads", "4", "--http", "h2c", "--server-metrics", "on");
        try {
            URI service = URI.create("http://127.0.0.1:" + lean.port() + PerfContract.SERVICE_PATH);
            Traffic traffic = operation.equals(SCENARIO)
                    ? Workloads.named(perflab.testsupport.PerflabProcess.home().resolve(SCENARIO).toString())
                            // the file's paths are the service's own: its target is the server
                            .traffic(new TrafficOptions("mix", URI.create("http://127.0.0.1:" + lean.port()), 42L, Map.of()))
                    : Workloads.named("soap-echo").traffic(new TrafficOptions(operation, service, 42L, Map.of("payload", "2")));
            LoadSpec spec = new LoadSpec(service, 2, 0, LoadSpec.Schedule.CONSTANT, null, REQUESTS, Duration.ZERO, 0,
                    Duration.ZERO, ConnectionPolicy.PERSISTENT, Duration.ofSeconds(10), 1.0, 42, 1, 0,
                    LoadSpec.HttpVersion.H2C, 1, null);
            DriverResult result = new LoadDriver(spec, traffic).run(interval -> { });
            assertEquals(REQUESTS, result.successes(), () -> result.errors() + " " + result.errorSamples());
            assertEquals(lean.metrics().requests(), lean.metrics().http2Requests(), "requests the server saw over HTTP/1.1");
            assertTrue(lean.metrics().requests() >= REQUESTS, "requests the server saw: " + lean.metrics().requests());
        } finally {
            lean.stop();
        }
    }
}

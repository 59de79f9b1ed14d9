package perflab.driver;

import java.net.URI;
import java.time.Duration;

/**
 * A manual probe, not a test: driver CPU per request against {@link EchoServer} (HTTP/1.1) or
 * {@link H2EchoServer} (h2c). Run the server and the driver in separate JVMs so the driver's CPU is its own:
 * {@code java -cp ... perflab.driver.DriverCpuProbe server} (or {@code server-h2c}) then
 * {@code java -cp ... perflab.driver.DriverCpuProbe drive http://127.0.0.1:PORT/echo 16 20 [loops [h2c S]]}.
 */
public final class DriverCpuProbe {
    public static void main(String[] args) throws Exception {
        if (args[0].equals("server-h2c")) {
            try (H2EchoServer server = new H2EchoServer()) {
                System.out.println(server.uri());
                System.in.read(); // until stdin closes
            }
            return;
        }
        if (args[0].equals("server")) {
            try (EchoServer server = new EchoServer()) {
                System.out.println(server.uri());
                System.in.read(); // until stdin closes
            }
            return;
        }
        TestSpec spec = new TestSpec(URI.create(args[1]));
        spec.clients = Integer.parseInt(args[2]);
        spec.duration = Duration.ofSeconds(Long.parseLong(args[3]));
        spec.warmup = Duration.ofSeconds(Long.getLong("warmup", 3));
        spec.eventLoops = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        if (args.length > 5) {
            spec.http = LoadSpec.HttpVersion.parse(args[5]);
            spec.streams = Integer.parseInt(args[6]);
        }
        DriverResult r = new LoadDriver(spec.build(), new EchoTraffic()).run(i -> { });
        System.out.printf("requests %d (errors %d) in %.1f s = %.0f req/s; driver CPU %.2f s = %.1f us/request; "
                        + "gc %.0f ms; saturated %s (%s); latency p50 %.3f ms p99 %.3f ms%n",
                r.requests(), r.errorCount(), r.measuredSeconds(), r.requests() / r.measuredSeconds(),
                r.driverCpuSeconds(), 1e6 * r.driverCpuSeconds() / r.requests(), r.driverGcPauseMs(), r.saturated(),
                r.saturationReason(), r.latency().getValueAtPercentile(50) / 1000.0,
                r.latency().getValueAtPercentile(99) / 1000.0);
    }
}

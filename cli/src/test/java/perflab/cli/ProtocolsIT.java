package perflab.cli;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perflab's driver drives a Jetty stack (test-workloads/hello) with zero errors over HTTP/1.1 and over h2c, and the server's
 * own count shows which protocol really carried the requests.
 */
class ProtocolsIT {
    private static final String HELLO = PerflabProcess.testWorkload("hello");

    private static final Pattern METRICS = Pattern.compile("PERFLAB-METRICS requests=(\\d+) h2=(\\d+)");

    @TempDir
    Path work;

    @ParameterizedTest
    @CsvSource({"jetty,http1", "jetty,h2c"})
    void zeroErrorsAndTheServerSawTheProtocol(String stack, String http) throws Exception {
        Path out = work.resolve(stack + "-" + http);
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--stack", stack, "--http", http,
                "--clients", "4", "--warmup", "1s", "--duration", "2s", "--heap", "256m", "--server-metrics", "on",
                "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        long successes = summary.get("successes").asLong();
        assertTrue(successes > 0);
        Matcher m = METRICS.matcher(Files.readString(out.resolve("sut.out")));
        assertTrue(m.find(), "the SUT printed no metrics line");
        long served = Long.parseLong(m.group(1));
        long h2 = Long.parseLong(m.group(2));
        // warm-up requests count on the server too
        assertTrue(served >= successes, served + " served, " + successes + " measured");
        assertEquals(http.equals("h2c") ? served : 0, h2, "requests over HTTP/2");
    }
}

package perflab.trade.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.PerflabProcess;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scenarios/trade.yaml, trade's standard mix written as a scenario file, is the same traffic as trade's Java driver:
 * both run against one lean server, each with no error, and each page kind's share of the requests agrees within the
 * mix's spread (a two-proportion z-test, |z| under 5 for every kind: it finds a kind off by about a point of the
 * requests or more, such as a sell that always looks at the portfolio first). Trade's audit of its books is clean
 * after both.
 */
class TradeScenarioIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double MAX_Z = 5;

    @TempDir
    Path work;

    @Test
    void theScenarioFileMakesTheJavaTrafficsPageMixWithoutAnError() throws Exception {
        Path serveDir = Files.createDirectories(work.resolve("serve"));
        PerflabProcess.shareCache(serveDir); // the population of trade's default users, made once for the module's tests
        try (PerflabProcess trade = PerflabProcess.start(serveDir, "serve", "trade", "--port", "0", "--heap", "384m",
                "--out", serveDir.resolve("logs").toString())) {
            // the first population of its users (in the module's shared cache) takes minutes on a busy machine; perflab
            // itself gives up on a server that stops making progress, and this wait then ends with it
            String port = trade.awaitLine(Pattern.compile("at http://127\\.0\\.0\\.1:(\\d+)/"), Duration.ofMinutes(5));
            String base = "http://127.0.0.1:" + port;
            JsonNode java = run("java", base, "trade");
            JsonNode scenario = run("scenario", base, PerflabProcess.home().resolve("scenarios/trade.yaml").toString());

            JsonNode javaKinds = java.get("byKind");
            JsonNode scenarioKinds = scenario.get("byKind");
            TreeSet<String> kinds = new TreeSet<>();
            javaKinds.fieldNames().forEachRemaining(k -> {
                if (javaKinds.get(k).path("requests").asLong() > 0) {
                    kinds.add(k);
                }
            });
            TreeSet<String> scenarioHas = new TreeSet<>();
            scenarioKinds.fieldNames().forEachRemaining(k -> {
                if (scenarioKinds.get(k).path("requests").asLong() > 0) {
                    scenarioHas.add(k);
                }
            });
            assertEquals(kinds, scenarioHas, "the same page kinds");
            double nJava = total(javaKinds);
            double nScenario = total(scenarioKinds);
            List<String> off = new ArrayList<>();
            StringBuilder table = new StringBuilder();
            for (String k : kinds) {
                double j = javaKinds.get(k).get("requests").asLong();
                double s = scenarioKinds.get(k).get("requests").asLong();
                double pooled = (j + s) / (nJava + nScenario);
                double z = (s / nScenario - j / nJava) / Math.sqrt(pooled * (1 - pooled) * (1 / nJava + 1 / nScenario));
                table.append(String.format("%n  %-10s java %6.2f %%  scenario %6.2f %%  z %+.2f", k, 100 * j / nJava,
                        100 * s / nScenario, z));
                if (Math.abs(z) >= MAX_Z) {
                    off.add(k);
                }
            }
            System.out.println("page shares, java against scenario:" + table);
            assertTrue(nJava >= 1000 && nScenario >= 1000, "enough requests to compare: " + nJava + ", " + nScenario);
            assertTrue(off.isEmpty(), "kinds whose share differs: " + off + table);

            JsonNode audit = JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base
                    + "/admin/audit")).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
            assertEquals(0, audit.get("violationCount").asLong(), audit.toString());
            trade.signal("INT");
            trade.await(Duration.ofSeconds(30));
        }
    }

    /** A run of the workload against the server; its summary, after checking it had no error. */
    private JsonNode run(String name, String base, String workload) throws Exception {
        Path out = work.resolve(name);
        try (PerflabProcess p = PerflabProcess.start(work, "run", workload, "--target", base, "--clients", "4",
                "--seed", "7", "--warmup", "3s", "--duration", "10s", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofMinutes(2)), p.err() + p.out());
        }
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        Path errors = out.resolve("errors.txt");
        assertEquals(0, summary.get("errors").get("total").asLong(), name + ": " + summary.get("errors") + "\n"
                + (Files.exists(errors) ? Files.readString(errors) : ""));
        return summary;
    }

    private static double total(JsonNode byKind) {
        double n = 0;
        for (JsonNode k : byKind) {
            n += k.path("requests").asLong();
        }
        return n;
    }
}

package perflab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.PerflabProcess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A scenario file (docs/scenarios.md) as the user's own traffic against a real server: scenarios/notes.yaml logs in
 * from a CSV row, carries the session's cookie and the form's CSRF token, reads notes whose ids it took from a page,
 * and writes notes, against test-workloads/notes kept up by perflab serve. A check that the server's pages do not pass
 * counts every such request as an error; mistakes in a file or in the flags are refused in one line.
 */
class ScenarioIT {
    private static final String NOTES = PerflabProcess.testWorkload("notes");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    @Test
    void theNotesScenarioRunsWithoutErrorsAndAWrongCheckFailsEveryPageItChecks() throws Exception {
        Path serveDir = Files.createDirectories(work.resolve("serve"));
        Path scenario = PerflabProcess.home().resolve("scenarios/notes.yaml");
        try (PerflabProcess notes = PerflabProcess.startWith(serveDir, NOTES, "serve", "notes", "--port", "0", "--heap",
                "128m", "--out", serveDir.resolve("logs").toString())) {
            String port = notes.awaitLine(Pattern.compile("at http://127\\.0\\.0\\.1:(\\d+)/"));
            String target = "http://127.0.0.1:" + port;
            Path out = work.resolve("run");
            try (PerflabProcess p = PerflabProcess.start(work, "run", scenario.toString(), "--target", target,
                    "--clients", "4", "--warmup", "2s", "--duration", "4s", "--deep-check", "1", "--out", out.toString())) {
                assertEquals(0, p.await(Duration.ofMinutes(2)), p.err() + p.out());
            }
            JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
            assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
            assertEquals(scenario.toString(), summary.get("workload").asText());
            JsonNode byKind = summary.get("byKind");
            for (String kind : new String[] {"list", "view", "add"}) {
                assertTrue(byKind.get(kind).get("successes").asLong() > 0, kind + ": " + byKind);
            }
            // browse (list, view) 70 and write (list, add) 30: adds are about 30 % of the iterations, a wide band
            double adds = byKind.get("add").get("successes").asDouble();
            double views = byKind.get("view").get("successes").asDouble();
            assertTrue(adds / (adds + views) > 0.15 && adds / (adds + views) < 0.5, "adds " + adds + ", views " + views);

            // a check the server's pages cannot pass: every list is a validation error, with its reason kept; driven by
            // two agents, which are sent the file and its data with the plan and read them from their own copies
            Path wrong = work.resolve("wrong.yaml");
            Files.writeString(wrong, Files.readString(scenario).replace("<h1>Notes of ${users.user}</h1>",
                    "<h1>Notes of someone else</h1>").replace("notes-users.csv", scenario.resolveSibling("notes-users.csv").toString()));
            Path bad = work.resolve("wrong");
            try (PerflabProcess p = PerflabProcess.start(work, "drive", wrong.toString(), "--target", target,
                    "--operation", "browse", "--clients", "2", "--agents", "local:2", "--warmup", "1s", "--duration", "3s",
                    "--out", bad.toString())) {
                p.await(Duration.ofMinutes(2));
            }
            JsonNode failed = JSON.readTree(bad.resolve("summary.json").toFile());
            JsonNode lists = failed.get("byKind").get("list");
            assertTrue(lists.get("requests").asLong() > 10, failed.toString());
            assertEquals(lists.get("requests").asLong(), lists.get("errors").get("validation").asLong(), "every list fails: " + lists);
            assertEquals(0, failed.get("byKind").path("view").path("requests").asLong(), "view comes after a list that passed");
            assertTrue(failed.get("errors").get("validation").asLong() > 10, failed.get("errors").toString());
            String samples = Files.readString(bad.resolve("errors.txt"));
            assertTrue(samples.contains("list: the body lacks '<h1>Notes of someone else</h1>'"), samples);
            notes.signal("INT");
            notes.await(Duration.ofSeconds(30));
        }
    }

    @Test
    void mistakesAreRefusedInOneLine() throws Exception {
        Path file = work.resolve("shop.yaml");
        Files.writeString(file, "scenario: shop\nsteps:\n  - get: /items/${item}\n");
        PerflabProcess.assertRefused(work, null, "shop.yaml:3:10: steps[0].get: undefined variable ${item}",
                "defined: ${client}", "drive", file.toString(), "--target", "http://127.0.0.1:9");
        PerflabProcess.assertRefused(work, null, "has no server of its own", "--target URL",
                "run", PerflabProcess.home().resolve("scenarios/notes.yaml").toString());
        PerflabProcess.assertRefused(work, null, "--heap shapes a server perflab starts", "leave out --target",
                "run", PerflabProcess.home().resolve("scenarios/notes.yaml").toString(), "--target", "http://127.0.0.1:9",
                "--heap", "1g");
        PerflabProcess.assertRefused(work, null, "no such workload file: none.yaml", "", "drive", "none.yaml", "--target",
                "http://127.0.0.1:9");
        // perflab scenario from-har comes from the scenario kind's registration, not from the CLI's own code
        PerflabProcess.assertRefused(work, null, "give what to do", "perflab scenario from-har FILE.har", "scenario");
        PerflabProcess.assertRefused(work, null, "Missing required parameter: 'FILE.har'",
                "perflab scenario from-har --help", "scenario", "from-har");
        PerflabProcess.assertRefused(work, null, "-o " + file + ": the file is there already", "give a new file",
                "scenario", "from-har", file.toString(), "-o", file.toString());
    }
}

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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A scenario against a product perflab did not write: scenarios/tomcat-examples.yaml visits Apache Tomcat 11's own
 * examples application (the request-parameters servlet, the sessions servlet, the JSP shopping cart), which
 * servers/tomcat-examples.yaml starts from Maven's local repository. Every answer is checked for what its request
 * sent and for its session's own state, so the run's 0 errors mean each page was the right one and the session's
 * cookie was kept. While that Tomcat runs, a copy of the scenario whose check expects the unescaped echo fails every
 * request it checks: the checks bite.
 */
class TomcatExamplesScenarioIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] KINDS = {"session-start", "params-form", "params-post", "session-set", "session-show",
            "session-remove", "cart-add", "cart-remove", "session-end"};
    /** The echo the scenario checks for (Tomcat escapes the &), and the raw one no page of Tomcat's shows. */
    private static final String ESCAPED = "\" = No.${tag} of Smith &amp; Sons\"";
    private static final String RAW = "\" = No.${tag} of Smith & Sons\"";

    @TempDir
    Path work;

    @Test
    void aVisitOfTomcatsExamplesPassesEveryCheckAndAWrongCheckFailsEveryPageItChecks() throws Exception {
        String repo = System.getenv("PERFLAB_MAVEN_REPO");
        Path zip = (repo != null && !repo.isBlank() ? Path.of(repo) : Path.of(System.getProperty("user.home"), ".m2",
                "repository")).resolve("org/apache/tomcat/tomcat/11.0.24/tomcat-11.0.24.zip");
        // cli's pom depends on the zip, so Maven has put it there: missing, it is a failure, not a skip
        assertTrue(Files.isRegularFile(zip), "Tomcat 11.0.24 is not in Maven's local repository (" + zip + "): "
                + "mvn org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get -Dartifact=org.apache.tomcat:tomcat:11.0.24:zip");
        Path scenario = PerflabProcess.home().resolve("scenarios/tomcat-examples.yaml");
        Path server = PerflabProcess.home().resolve("servers/tomcat-examples.yaml");
        Path wrong = work.resolve("wrong.yaml");
        String text = Files.readString(scenario);
        Files.writeString(wrong, text.replace(ESCAPED, RAW));
        assertNotEquals(text, Files.readString(wrong), "the scenario checks the escaped echo " + ESCAPED);

        Path out = work.resolve("run");
        Path bad = work.resolve("wrong");
        long tomcat;
        try (PerflabProcess p = PerflabProcess.start(work, "run", scenario.toString(), "--server", server.toString(),
                "--set", "threads=8", "--clients", "4", "--warmup", "4s", "--duration", "6s", "--heap", "256m",
                "--out", out.toString())) {
            // Tomcat is ready: the wrong copy goes to it during the run's warm-up, and is done long before it stops
            String port = p.awaitLine(Pattern.compile("SUT pid \\d+ on port (\\d+)"));
            Path driveDir = Files.createDirectories(work.resolve("drive"));
            try (PerflabProcess d = PerflabProcess.start(driveDir, "drive", wrong.toString(), "--target",
                    "http://127.0.0.1:" + port + "/examples", "--operation", "params", "--clients", "2", "--warmup", "0s",
                    "--requests", "120", "--out", bad.toString())) {
                d.await(Duration.ofMinutes(1));
            }
            assertEquals(0, p.await(Duration.ofMinutes(3)), p.err() + p.out());
            tomcat = JSON.readTree(out.resolve("run.json").toFile()).get("processes").get("sut").get("pid").asLong();
        }
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals(scenario.toString(), summary.get("workload").asText());
        assertEquals("tomcat-examples", summary.get("stack").asText());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        JsonNode byKind = summary.get("byKind");
        for (String kind : KINDS) {
            assertTrue(byKind.path(kind).path("successes").asLong() > 0, kind + ": " + byKind);
        }
        String serverXml = Files.readString(out.resolve("sut-home/conf/server.xml"));
        assertTrue(serverXml.contains("maxThreads=\"8\""), "--set threads reached Tomcat's connector: " + serverXml);
        PerflabProcess.assertGone(tomcat);

        // the form's echo checked raw: every post fails its check, with its reason kept; the form page before it passes
        JsonNode failed = JSON.readTree(bad.resolve("summary.json").toFile());
        JsonNode posts = failed.get("byKind").get("params-post");
        assertTrue(posts.get("requests").asLong() > 10, failed.toString());
        assertEquals(posts.get("requests").asLong(), posts.get("errors").get("validation").asLong(), "every post fails: " + posts);
        assertEquals(0, failed.get("byKind").get("params-form").get("errors").get("total").asLong(), failed.toString());
        String samples = Files.readString(bad.resolve("errors.txt"));
        assertTrue(samples.contains("params-post: the body lacks ' = No.") && samples.contains(" of Smith & Sons'"), samples);
    }
}

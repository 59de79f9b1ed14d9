package perflab.trade.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import perflab.testsupport.PerflabProcess;
import perflab.trade.browser.HarRecorder;
import perflab.trade.browser.HeadlessChromium;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A browser's recording turned into load (docs/scenarios.md, "From a recording"): a person logs in to trade's lean
 * pages in a real headless Chromium, buys a symbol, sells the holding and logs out, while the browser records what
 * it sent and received; perflab scenario from-har makes the recording a scenario file, and perflab run replays it,
 * unedited, against the same server kept up by perflab serve: every page passes its recorded check, the form tokens
 * and the holding's id are taken from each session's own pages, and the books still balance after it.
 */
class HarRecordingIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    @Test
    void aRecordedVisitReplaysAgainstTheSameServerWithoutAnError() throws Exception {
        String missing = HeadlessChromium.missing();
        assumeTrue(missing == null, missing);
        Path serveDir = Files.createDirectories(work.resolve("serve"));
        PerflabProcess.shareCache(serveDir); // the population of trade's default users, made once for the module's tests
        try (PerflabProcess trade = PerflabProcess.start(serveDir, "serve", "trade", "--port", "0", "--heap", "256m",
                "--out", serveDir.resolve("logs").toString())) {
            // the first population of its users (in the module's shared cache) takes minutes on a busy machine; perflab
            // itself gives up on a server that stops making progress, and this wait then ends with it
            String port = trade.awaitLine(Pattern.compile("at http://127\\.0\\.0\\.1:(\\d+)/"), Duration.ofMinutes(5));
            String base = "http://127.0.0.1:" + port;
            Path har = work.resolve("buy-sell.har");
            record(base, har);

            Path scenario = work.resolve("buy-sell.yaml");
            try (PerflabProcess p = PerflabProcess.start(work, "scenario", "from-har", har.toString(), "--no-think",
                    "-o", scenario.toString())) {
                assertEquals(0, p.await(Duration.ofMinutes(1)), p.err());
            }
            String yaml = Files.readString(scenario);
            assertTrue(yaml.contains("input[name=csrf]"), "the form token is taken from a page:\n" + yaml);
            assertTrue(yaml.contains("holdingId: \"${holdingId}\""), "the holding sold is one the page lists:\n" + yaml);
            assertTrue(!yaml.contains("${uid}") && !yaml.contains("${passwd}") && !yaml.contains("${quantity}"),
                    "what the person typed stays as typed:\n" + yaml);

            Path out = work.resolve("replay");
            try (PerflabProcess p = PerflabProcess.start(work, "run", scenario.toString(), "--target", base,
                    "--clients", "1", "--warmup", "2s", "--duration", "5s", "--out", out.toString())) {
                assertEquals(0, p.await(Duration.ofMinutes(2)), p.err() + p.out());
            }
            JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
            Path errors = out.resolve("errors.txt");
            assertEquals(0, summary.get("errors").get("total").asLong(), summary.get("errors") + "\n"
                    + (Files.exists(errors) ? Files.readString(errors) : "") + "\n" + yaml);
            JsonNode byKind = summary.get("byKind");
            for (String kind : new String[] {"POST /login", "POST /buy", "POST /sell", "POST /logout"}) {
                // each session replays the whole visit: a fresh login, a buy and a sell, many times over
                assertTrue(byKind.path(kind).path("successes").asLong() >= 3, kind + " in " + byKind);
            }
            JsonNode audit = JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base
                    + "/admin/audit")).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
            assertEquals(0, audit.get("violationCount").asLong(), audit.toString());
            trade.signal("INT");
            trade.await(Duration.ofSeconds(30));
        }
    }

    /** A person's visit in the browser, recorded: log in, buy 25 of s:7, sell the holding, log out. */
    private void record(String base, Path har) throws Exception {
        try (HeadlessChromium browser = new HeadlessChromium(work.resolve("browser"), true)) {
            HarRecorder recorder = new HarRecorder(browser);
            browser.driver.get(base + "/login");
            browser.waitFor(By.id("login"));
            recorder.collect();
            WebElement login = browser.driver.findElement(By.id("login"));
            login.findElement(By.name("uid")).sendKeys("uid:1");
            login.findElement(By.name("passwd")).sendKeys("xxx");
            browser.clickAndWait(login.findElement(By.tagName("button")));
            recorder.collect();
            follow(browser, "Quotes");
            recorder.collect();
            WebElement symbols = browser.driver.findElement(By.name("symbols"));
            symbols.clear();
            symbols.sendKeys("s:7");
            browser.clickAndWait(browser.driver.findElement(By.xpath("//form[.//input[@name='symbols']]//button")));
            recorder.collect();
            WebElement row = browser.waitFor(By.cssSelector("tr.quote[data-symbol='s:7']"));
            WebElement quantity = row.findElement(By.name("quantity"));
            quantity.clear();
            quantity.sendKeys("25");
            browser.clickAndWait(row.findElement(By.tagName("button")));
            recorder.collect();
            follow(browser, "Portfolio");
            recorder.collect();
            browser.clickAndWait(browser.waitFor(By.cssSelector("tr.holding[data-symbol='s:7'] button")));
            recorder.collect();
            browser.clickAndWait(browser.driver.findElement(By.xpath("//header//button[normalize-space()='Log out']")));
            recorder.collect();
            recorder.write(har);
            assertTrue(recorder.size() >= 8, "a request per page at least: " + recorder.size());
        }
    }

    private static void follow(HeadlessChromium browser, String link) {
        browser.clickAndWait(browser.driver.findElement(By.xpath("//header//nav//a[normalize-space()='" + link + "']")));
        browser.waitFor(By.id("user"));
    }
}

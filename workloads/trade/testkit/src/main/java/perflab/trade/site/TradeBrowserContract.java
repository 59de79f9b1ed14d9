package perflab.trade.site;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import perflab.trade.browser.HeadlessChromium;
import perflab.trade.contract.TradeRules;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A person at a trade stack's pages in a real browser, the same on every stack: headless Chromium driven through
 * WebDriver, clicking links and buttons and typing into the forms a person sees. Where {@link TradeSiteContract}
 * posts forms by hand, this finds out whether the pages can be used as they are rendered: the links are there, the
 * forms post what they should, the browser keeps the session. A stack's test extends this with its running site
 * ({@link #site()}, at least 4 users and 20 symbols).
 *
 * <p>Nothing is downloaded: the browser and its driver are Debian's {@code chromium} and {@code chromium-driver},
 * both given by path, so Selenium Manager (which would fetch a driver and a browser) is never asked; a cache
 * directory of this test's own ({@code SE_CACHE_PATH}) would hold Selenium Manager's binary if it ever ran, and the
 * test fails if it does. Skipped, with the reason in the build log, when either package is missing (CI installs
 * both: .ci/run). A failing test leaves a screenshot and the page's source in target/trade-browser/.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class TradeBrowserContract {
    private static final Path OUT = Path.of("target/trade-browser");

    private String missing;
    private HeadlessChromium browser;
    private WebDriver driver;

    /** The site under test, started once for the class. */
    protected abstract SiteUnderTest site();

    @BeforeAll
    void openBrowser() throws Exception {
        missing = HeadlessChromium.missing();
        if (missing != null) {
            return;
        }
        HeadlessChromium.deleteTree(OUT); // no screenshot of an earlier run's failure
        Files.createDirectories(OUT);
        browser = new HeadlessChromium(OUT, false);
        driver = browser.driver;
    }

    @AfterAll
    void closeBrowser() throws Exception {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void freshBrowser() {
        assumeTrue(missing == null, missing);
        driver.manage().deleteAllCookies(); // each test is a person of their own, logged in by nobody
    }

    @Test
    void aPersonBuysASymbolSeesItInThePortfolioAndSellsIt(TestInfo test) throws Exception {
        evidenceOnFailure(test, () -> {
            String user = "uid:1";
            String symbol = "s:7";
            logIn(user, TradeRules.PASSWORD);
            assertEquals(user, driver.findElement(By.id("user")).getText(), "the home page says who is logged in");
            assertTrue(driver.findElement(By.id("market-summary")).isDisplayed(), "the home page has the market summary");

            follow("Portfolio");
            Set<String> before = holdingIds();

            follow("Quotes");
            WebElement symbols = driver.findElement(By.name("symbols"));
            symbols.clear();
            symbols.sendKeys(symbol);
            clickAndWait(driver.findElement(By.xpath("//form[.//input[@name='symbols']]//button[normalize-space()='Show']")));
            WebElement row = waitFor(By.cssSelector("tr.quote[data-symbol='" + symbol + "']"));
            assertEquals(1, driver.findElements(By.cssSelector("tr.quote")).size(), "only the symbol asked for");
            WebElement quantity = row.findElement(By.name("quantity"));
            assertEquals("Shares of " + symbol + " to buy", quantity.getAccessibleName(), "the field says what it is");
            quantity.clear();
            quantity.sendKeys("25");
            clickAndWait(row.findElement(By.tagName("button")));

            assertEquals("Buy order", waitFor(By.tagName("h1")).getText());
            assertEquals(symbol, driver.findElement(By.id("order-symbol")).getText());
            assertEquals("25", driver.findElement(By.id("order-quantity")).getText());
            assertEquals(TradeRules.CLOSED, driver.findElement(By.id("order-status")).getText());
            String buyOrder = driver.findElement(By.id("order-id")).getText();

            follow("Portfolio");
            assertAlerted("order " + buyOrder + ": buy 25 " + symbol + " at ");
            List<WebElement> rows = driver.findElements(By.cssSelector("tr.holding[data-symbol='" + symbol + "']"));
            List<WebElement> added = rows.stream().filter(r -> !before.contains(r.getDomAttribute("data-id"))).toList();
            assertEquals(1, added.size(), "one new holding of " + symbol + " beside " + before);
            WebElement holding = added.get(0);
            String holdingId = holding.getDomAttribute("data-id");
            assertEquals("25", holding.findElements(By.tagName("td")).get(3).getText(), "the holding's quantity");
            assertEquals(before.size() + 1, holdingIds().size());

            clickAndWait(holding.findElement(By.tagName("button")));
            assertEquals("Sell order", waitFor(By.tagName("h1")).getText());
            assertEquals(symbol, driver.findElement(By.id("order-symbol")).getText());
            assertEquals("25", driver.findElement(By.id("order-quantity")).getText());
            assertEquals(TradeRules.CLOSED, driver.findElement(By.id("order-status")).getText());
            String sellOrder = driver.findElement(By.id("order-id")).getText();

            follow("Portfolio");
            assertAlerted("order " + sellOrder + ": sell 25 " + symbol + " at ");
            assertFalse(holdingIds().contains(holdingId), "the sold holding is gone");
            assertEquals(before, holdingIds(), "the portfolio is as it was before the buy");

            clickAndWait(driver.findElement(By.xpath("//header//button[normalize-space()='Log out']")));
            assertTrue(driver.getCurrentUrl().endsWith("/login"), driver.getCurrentUrl());
            waitFor(By.id("login"));
            assertTrue(driver.findElements(By.id("user")).isEmpty(), "nobody is logged in");
            driver.get(site().base().resolve("/portfolio").toString());
            assertTrue(driver.getCurrentUrl().endsWith("/login"), "the session is over: " + driver.getCurrentUrl());
        });
    }

    @Test
    void aWrongPasswordShowsTheLoginError(TestInfo test) throws Exception {
        evidenceOnFailure(test, () -> {
            logIn("uid:2", "not-the-password");
            WebElement error = waitFor(By.id("login-error"));
            assertTrue(error.isDisplayed());
            assertEquals("Wrong user id or password.", error.getText());
            assertTrue(driver.findElements(By.id("user")).isEmpty(), "nobody is logged in");
            assertEquals("uid:2", driver.findElement(By.name("uid")).getDomProperty("value"),
                    "the user id stays typed in");
            assertEquals("", driver.findElement(By.name("passwd")).getDomProperty("value"), "the password does not");
        });
    }

    @Test
    void markupTypedIntoTheFullNameIsShownAsText(TestInfo test) throws Exception {
        evidenceOnFailure(test, () -> {
            String markup = "<b id=\"injected\">Bo</b> \"><i id=\"injected\">b</i><script>document.title='x'</script> & Co";
            logIn("uid:3", TradeRules.PASSWORD);
            follow("Account");
            WebElement form = driver.findElement(By.id("profile"));
            WebElement fullName = form.findElement(By.name("fullname"));
            fullName.clear();
            fullName.sendKeys(markup);
            form.findElement(By.name("passwd")).sendKeys(TradeRules.PASSWORD);
            form.findElement(By.name("confirm")).sendKeys(TradeRules.PASSWORD);
            clickAndWait(form.findElement(By.tagName("button")));
            assertEquals("Profile updated.", waitFor(By.id("updated")).getText());
            assertShownLiterally(markup);

            follow("Account"); // and again on a page of its own, not only the one that answered the form
            assertShownLiterally(markup);
            assertEquals(markup, site().trade().profile("uid:3").orElseThrow().fullName(), "stored as typed");
        });
    }

    private void assertShownLiterally(String markup) {
        assertEquals(markup, driver.findElement(By.name("fullname")).getDomProperty("value"));
        assertTrue(driver.findElements(By.id("injected")).isEmpty(), "no element of the markup is in the page");
        assertTrue(driver.getTitle().startsWith("Account"), "no script of the markup ran: " + driver.getTitle());
    }

    // --- a person's moves ---

    private void logIn(String user, String password) {
        driver.get(site().base().resolve("/login").toString());
        WebElement form = waitFor(By.id("login"));
        form.findElement(By.name("uid")).sendKeys(user);
        form.findElement(By.name("passwd")).sendKeys(password);
        clickAndWait(form.findElement(By.tagName("button")));
    }

    /** Clicks the header's link named {@code text} and waits for its page. */
    private void follow(String text) {
        clickAndWait(driver.findElement(By.xpath("//header//nav//a[normalize-space()='" + text + "']")));
        waitFor(By.id("user"));
    }

    private void clickAndWait(WebElement element) {
        browser.clickAndWait(element);
    }

    private WebElement waitFor(By by) {
        return browser.waitFor(by);
    }

    private Set<String> holdingIds() {
        waitFor(By.id("holdings"));
        return driver.findElements(By.cssSelector("tr.holding")).stream().map(r -> r.getDomAttribute("data-id"))
                .collect(Collectors.toSet());
    }

    /** The page's alert of the orders completed since the last page has a line for a closed order that starts so. */
    private void assertAlerted(String start) {
        String alerts = waitFor(By.id("alerts")).getText();
        assertTrue(alerts.lines().anyMatch(l -> l.startsWith(start) && l.endsWith(", " + TradeRules.CLOSED)), alerts);
    }

    // --- when it fails ---

    protected interface Steps {
        void run() throws Exception;
    }

    /** Runs {@code steps}; when they fail, keeps what the browser showed (a screenshot, the page's source). */
    private void evidenceOnFailure(TestInfo test, Steps steps) throws Exception {
        try {
            steps.run();
        } catch (Exception | AssertionError e) {
            String name = test.getTestMethod().map(m -> m.getName()).orElse("test");
            try {
                Files.write(OUT.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
                Files.writeString(OUT.resolve(name + ".html"), driver.getCurrentUrl() + "\n" + driver.getPageSource());
            } catch (RuntimeException | IOException kept) {
                e.addSuppressed(kept);
            }
            throw e;
        }
    }
}

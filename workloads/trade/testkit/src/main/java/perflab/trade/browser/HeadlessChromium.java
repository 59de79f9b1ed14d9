package perflab.trade.browser;

import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * A person's browser for the tests of trade's pages: Debian's headless Chromium driven through Debian's chromedriver,
 * both given by path, so that Selenium Manager (which would download a driver and a browser) is never asked; a cache
 * directory of its own ({@code SE_CACHE_PATH}) would hold Selenium Manager's binary if it ever ran, and closing
 * fails then. With {@code recordNetwork} the browser keeps a log of what it sent and received (Chromium's
 * performance log of DevTools' Network events), which {@link HarRecorder} makes into a HAR file.
 */
public final class HeadlessChromium implements AutoCloseable {
    /** Debian's paths; another machine's can be given with -Dperflab.chromium=... and -Dperflab.chromedriver=... */
    public static final Path CHROMIUM = Path.of(System.getProperty("perflab.chromium", "/usr/bin/chromium"));
    public static final Path CHROMEDRIVER = Path.of(System.getProperty("perflab.chromedriver", "/usr/bin/chromedriver"));
    /** Every wait for a page or an element: the pages come from loopback in milliseconds, so a few seconds is ample. */
    private static final Duration WAIT = Duration.ofSeconds(5);
    /**
     * Selenium warns at every start that it has no DevTools (CDP) classes for this Chromium's version: WebDriver and
     * chromedriver's own CDP command are all that is used, so no selenium-devtools jar is on the classpath.
     */
    private static final Logger CDP_VERSION_FINDER = Logger.getLogger("org.openqa.selenium.devtools.CdpVersionFinder");

    public final ChromeDriver driver;
    public final WebDriverWait wait;
    private final ChromeDriverService service;
    private final Path seleniumCache;
    private final Path browserTemp;

    /** Why a browser cannot be started here (a package missing), or null. */
    public static String missing() {
        return !Files.isExecutable(CHROMIUM) ? "chromium is not installed (" + CHROMIUM + ", Debian's chromium)"
                : !Files.isExecutable(CHROMEDRIVER) ? "chromedriver is not installed (" + CHROMEDRIVER
                + ", Debian's chromium-driver)" : null;
    }

    /** Starts the browser; {@code work} holds Selenium's would-be cache, which must stay empty. */
    public HeadlessChromium(Path work, boolean recordNetwork) throws IOException {
        seleniumCache = work.resolve("selenium-cache");
        deleteTree(seleniumCache);
        Files.createDirectories(seleniumCache);
        System.setProperty("SE_CACHE_PATH", seleniumCache.toAbsolutePath().toString());
        // were Selenium Manager run all the same, it would download nothing and send no usage statistics
        System.setProperty("SE_OFFLINE", "true");
        System.setProperty("SE_AVOID_STATS", "true");
        CDP_VERSION_FINDER.setLevel(Level.SEVERE);
        // Chromium leaves a directory in /tmp behind at every quit; a short path of ours, so that its socket's path
        // stays within the 108 bytes a Unix socket may have
        browserTemp = Files.createTempDirectory("perflab-chromium-");
        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()) // a driver given: Selenium Manager is not asked for one
                .usingAnyFreePort()
                .withEnvironment(Map.of("TMPDIR", browserTemp.toString()))
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                // Chromium refuses to start as root without it, and root is who runs the build here and in CI; the only
                // pages it opens are the tests' own on loopback
                "--no-sandbox",
                // containers often have a small /dev/shm; Chromium then crashes on larger pages
                "--disable-dev-shm-usage",
                "--window-size=1280,1024",
                // nothing of Chromium's own reaches out either (updates, sync, field trials, first-run pages)
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-extensions");
        if (recordNetwork) {
            LoggingPreferences logs = new LoggingPreferences();
            logs.enable(LogType.PERFORMANCE, Level.ALL);
            options.setCapability("goog:loggingPrefs", logs);
            options.setExperimentalOption("perfLoggingPrefs", Map.of("enableNetwork", true, "enablePage", false));
        }
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(WAIT).scriptTimeout(WAIT).implicitlyWait(Duration.ZERO);
        wait = new WebDriverWait(driver, WAIT);
        wait.pollingEvery(Duration.ofMillis(50)); // not the default half second: a page here takes milliseconds
        checkSeleniumManagerNeverRan();
    }

    public WebElement waitFor(By by) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(by));
    }

    /** Clicks an element that leads to another page, and waits until that page is there. */
    public void clickAndWait(WebElement element) {
        leaveAfter(element::click);
    }

    /**
     * Does {@code move}, which leads to another page, and waits until the browser shows that page, fully loaded.
     * The page left is marked first and the wait is for a document without the mark: ChromeDriver answers a question
     * about an element of a page that is gone with an unknown error instead of a stale element, so Selenium's
     * {@code stalenessOf} cannot tell.
     */
    public void leaveAfter(Runnable move) {
        JavascriptExecutor js = driver;
        js.executeScript("document.perflabLeft = true");
        move.run();
        wait.until(d -> Boolean.TRUE.equals(((JavascriptExecutor) d).executeScript(
                "return document.perflabLeft !== true && document.readyState === 'complete'")));
        waitFor(By.tagName("main"));
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            try {
                service.stop(); // already stopped by quit(); here for a driver that never got a session
            } finally {
                try {
                    deleteTree(browserTemp);
                } catch (IOException | UncheckedIOException e) { // a browser still exiting
                    System.out.println("HeadlessChromium: could not remove " + browserTemp + ": " + e);
                }
            }
        }
        checkSeleniumManagerNeverRan();
    }

    private void checkSeleniumManagerNeverRan() throws IOException {
        try (Stream<Path> files = Files.list(seleniumCache)) {
            if (files.findAny().isPresent()) {
                throw new AssertionError("Selenium Manager was unpacked into " + seleniumCache + ": something asked it "
                        + "for a driver or a browser, which it would have downloaded");
            }
        }
    }

    public static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }
}

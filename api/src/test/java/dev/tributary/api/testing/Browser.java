package dev.tributary.api.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A headless Chromium on the app under test, with the few steps the browser tests are written in.
 * Every wait has a deadline ({@link #WAIT}) and fails with what it was waiting for.
 */
public final class Browser implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final Duration POLL = Duration.ofMillis(50);

    private final ChromeDriver driver;
    private final String base;
    private final Path profile;

    private Browser(ChromeDriver driver, String base, Path profile) {
        this.driver = driver;
        this.base = base;
        this.profile = profile;
    }

    static Browser start(Chromium chromium, String base) {
        Path profile;
        try {
            profile = Files.createTempDirectory("tributary-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.binary().toFile());
        // The flags this machine needs (see the machine notes): no sandbox as root, and no
        // background connections to Google, which the closed network refuses.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,1000", "--lang=en-US");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromium.driver().toFile()).usingAnyFreePort().build();
        return new Browser(new ChromeDriver(service, options), base, profile);
    }

    /** The app's origin, {@code http://127.0.0.1:<port>}. */
    public String base() {
        return base;
    }

    public Browser open(String path) {
        driver.get(base + path);
        return this;
    }

    public String url() {
        return driver.getCurrentUrl();
    }

    public String path() {
        return URI.create(driver.getCurrentUrl()).getPath();
    }

    /** Creates an account through the sign-up page and waits for the home page, signed in. */
    public Browser signUp(String username, String password) {
        open("/signup");
        type("#signup-username", username);
        type("#signup-password", password);
        click("#signup-form button[type=submit]");
        return waitForSignedIn(username);
    }

    /** Signs in through the sign-in page and waits for the home page. */
    public Browser signIn(String username, String password) {
        open("/login");
        type("#username", username);
        type("#password", password);
        click("#login-form button[type=submit]");
        return waitForSignedIn(username);
    }

    private Browser waitForSignedIn(String username) {
        waitUntil("the home page, signed in as " + username,
                () -> "/".equals(path()) && exists("#me-link:not([hidden])") && username.equals(text("#me-link")));
        return this;
    }

    /** The first visible element matching {@code css}, waiting for it. */
    public WebElement waitFor(String css) {
        return wait(css + " to be visible").until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    /** Waits until an element matching {@code css} contains {@code text}. */
    public WebElement waitForText(String css, String text) {
        waitUntil(css + " to contain '" + text + "'",
                () -> all(css).stream().anyMatch(element -> element.getText().contains(text)));
        return all(css).stream().filter(element -> element.getText().contains(text)).findFirst().orElseThrow();
    }

    /** Waits, up to the deadline, until {@code condition} holds (a stale element counts as not yet). */
    public void waitUntil(String what, BooleanSupplier condition) {
        wait(what).until(ignored -> {
            try {
                return condition.getAsBoolean();
            } catch (StaleElementReferenceException replaced) {
                return false;
            }
        });
    }

    private WebDriverWait wait(String what) {
        // Selenium polls every 500 ms by default: a condition met at once would still cost a test
        // a quarter of a second on average, dozens of times over.
        WebDriverWait wait = new WebDriverWait(driver, WAIT, POLL);
        wait.withMessage(() -> "waiting for " + what + " at " + driver.getCurrentUrl());
        return wait;
    }

    public WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    public List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    public boolean exists(String css) {
        return !all(css).isEmpty();
    }

    public String text(String css) {
        return find(css).getText();
    }

    public Browser type(String css, String text) {
        WebElement field = waitFor(css);
        field.clear();
        field.sendKeys(text);
        return this;
    }

    /** Clicks the element once it is visible and enabled. */
    public Browser click(String css) {
        wait(css + " to be clickable").until(ExpectedConditions.elementToBeClickable(By.cssSelector(css))).click();
        return this;
    }

    /** Keys pressed with the page focused where it is (e.g. {@code "j"}, {@code Keys.ESCAPE}). */
    public Browser press(CharSequence... keys) {
        new Actions(driver).sendKeys(keys).perform();
        return this;
    }

    public Object script(String javascript, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(javascript, arguments);
    }

    public Browser resize(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
        return this;
    }

    /**
     * Makes the page's viewport exactly {@code width}×{@code height} CSS pixels, as a screen of that
     * size shows it, through the DevTools protocol: headless Chromium keeps a window at least 500
     * pixels wide, so {@link #resize} cannot make a phone. Below 760 pixels wide it is a mobile
     * screen (touch, the viewport meta tag honoured). It lasts across pages.
     */
    public Browser resizeViewport(int width, int height) {
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", java.util.Map.of("width", width, "height", height,
                "deviceScaleFactor", 1, "mobile", width < 760));
        return this;
    }

    /** How many CSS pixels the page is wider than the window (0: no horizontal scrolling). */
    public long horizontalOverflow() {
        return ((Number) script("return document.documentElement.scrollWidth - document.documentElement.clientWidth"))
                .longValue();
    }

    /** The browser console since the last call: script errors, CSP reports, failed loads. */
    public List<String> consoleMessages() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::toString).toList();
    }

    /** The console's errors since the last read: script errors, CSP violations, failed loads. */
    public List<String> consoleErrors() {
        return consoleMessages().stream().filter(message -> message.contains("SEVERE")).toList();
    }

    /**
     * The console's errors but Chromium's own line for each API call the server refused with a 4xx
     * (which a test provoked and the page showed as a message). A failed load of anything else,
     * such as a script, still counts.
     */
    public List<String> consoleErrorsBesidesApiRefusals() {
        return consoleErrors().stream().filter(message -> !(message.contains("/api/v1/")
                && message.contains("Failed to load resource: the server responded with a status of 4"))).toList();
    }

    /** Runs {@code javascript} that calls its last argument (a callback) when done, and answers what it was given. */
    public Object asyncScript(String javascript, Object... arguments) {
        return ((JavascriptExecutor) driver).executeAsyncScript(javascript, arguments);
    }

    /**
     * Emulates the system's colour scheme ({@code "dark"}, {@code "light"}, or {@code ""} for none)
     * as {@code prefers-color-scheme} sees it, through the DevTools protocol.
     */
    public Browser emulateColorScheme(String scheme) {
        driver.executeCdpCommand("Emulation.setEmulatedMedia",
                java.util.Map.of("features", List.of(java.util.Map.of("name", "prefers-color-scheme", "value", scheme))));
        return this;
    }

    /** Runs {@code javascript} in every page this browser opens from now on, before the page's own scripts. */
    public Browser beforeEachPage(String javascript) {
        driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", java.util.Map.of("source", javascript));
        return this;
    }

    /** Saves what the window shows as a PNG (a test artefact, for people to look at). */
    public Path saveScreenshot(Path file) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, screenshot());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    byte[] screenshot() {
        return driver.getScreenshotAs(OutputType.BYTES);
    }

    String pageSource() {
        return driver.getPageSource();
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            deleteProfile();
        }
    }

    private void deleteProfile() {
        try (Stream<Path> files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException leftBehind) {
            // A temp directory: the OS cleans it eventually, and the test's outcome doesn't depend on it.
        }
    }
}

package dev.tributary.api.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * Gives {@link BrowserTest}s their {@link Browser}: skips them when Chromium is missing (saying so
 * on the console), records what the page showed when a test fails, and closes the browser after.
 */
final class BrowserExtension implements ExecutionCondition, ParameterResolver, TestExecutionExceptionHandler,
        AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(BrowserExtension.class);
    private static final Path FAILURES = Path.of("target", "browser-failures");

    /** The console warning once per run, not once per test class. */
    private static final AtomicBoolean warned = new AtomicBoolean();

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Chromium chromium = Chromium.find();
        if (chromium.present() || Chromium.required()) {
            return ConditionEvaluationResult.enabled("Chromium at " + chromium.binary());
        }
        String reason = "SKIPPED browser tests: " + chromium.missing()
                + ". Install Debian's chromium and chromium-driver (apt-get install chromium chromium-driver) to run them.";
        if (warned.compareAndSet(false, true)) {
            System.out.println("\n*** " + reason + " ***\n");
        }
        return ConditionEvaluationResult.disabled(reason);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Browser.class;
    }

    @Override
    public Browser resolveParameter(ParameterContext parameter, ExtensionContext context) {
        int port = Integer.parseInt(SpringExtension.getApplicationContext(context).getEnvironment()
                .getRequiredProperty("local.server.port"));
        Browser browser = Browser.start(Chromium.find(), "http://127.0.0.1:" + port);
        context.getStore(NAMESPACE).put(Browser.class, browser);
        return browser;
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        Browser browser = context.getStore(NAMESPACE).get(Browser.class, Browser.class);
        if (browser != null) {
            record(context, browser, failure);
        }
        throw failure;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Browser browser = context.getStore(NAMESPACE).remove(Browser.class, Browser.class);
        if (browser != null) {
            browser.close();
        }
    }

    /** The screenshot, the page's HTML and its console, named after the test. */
    private static void record(ExtensionContext context, Browser browser, Throwable failure) {
        String name = context.getRequiredTestClass().getSimpleName() + "." + context.getRequiredTestMethod().getName();
        try {
            Files.createDirectories(FAILURES);
            Files.write(FAILURES.resolve(name + ".png"), browser.screenshot());
            Files.writeString(FAILURES.resolve(name + ".html"), browser.pageSource(), StandardCharsets.UTF_8);
            Files.writeString(FAILURES.resolve(name + ".console.txt"),
                    browser.url() + "\n" + String.join("\n", browser.consoleMessages()), StandardCharsets.UTF_8);
            failure.addSuppressed(new AssertionError("Browser state saved to " + FAILURES.resolve(name) + ".{png,html,console.txt}"));
        } catch (IOException | RuntimeException unrecorded) {
            failure.addSuppressed(unrecorded);
        }
    }
}

package dev.tributary.api.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test of the web front end in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromedriver}) against the whole app, sharing {@link ApiTest}'s context. Test methods
 * take a {@link Browser} parameter: a fresh browser profile per test, a screenshot and the page's
 * HTML in {@code target/browser-failures/} when the test fails. Without Chromium the tests are
 * skipped, loudly, unless {@code TRIBUTARY_BROWSER_TESTS=required} (as {@code .ci/run} sets).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ApiTest
@Tag("browser")
@ExtendWith(BrowserExtension.class)
public @interface BrowserTest {
}

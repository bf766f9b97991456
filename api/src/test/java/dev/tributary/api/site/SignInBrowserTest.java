package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import org.junit.jupiter.api.Test;

@BrowserTest
class SignInBrowserTest {

    @Test
    void signsUpThenOutThenBackIn(Browser browser) {
        String username = ApiClient.uniqueUsername("web");
        browser.signUp(username, "correct horse battery");

        browser.click("#sign-out");
        browser.waitForText(".notice", "You are signed out.");
        assertThat(browser.path()).isEqualTo("/login");

        browser.open("/");
        browser.waitUntil("the sign-in page", () -> "/login".equals(browser.path()));

        browser.signIn(username, "correct horse battery");
        assertThat(browser.consoleErrors()).isEmpty();
    }
}

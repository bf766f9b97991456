package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Errors as a person's browser meets them: a page in the site's layout for every status (not
 * only 404), where API clients and the pages' own calls keep problem+json.
 */
@BrowserTest
class ErrorPagesBrowserTest {

    private static final String PASSWORD = "correct horse battery";

    @LocalServerPort int port;

    @Test
    void everyErrorAPersonCanMeetIsAPageInTheSiteLayout(Browser browser) {
        browser.open("/nope");
        assertThat(browser.text("h1")).isEqualTo("Not found");
        assertThat(browser.text("main")).contains("There is nothing at this address.").contains("Error 404");
        assertThat(browser.script("return document.title")).isEqualTo("Not found – Tributary");

        // Refused by the security firewall before any page (a ';' in the path).
        browser.open("/sources;jsessionid=x");
        assertThat(browser.text("h1")).isEqualTo("Bad request");
        assertThat(browser.text("main")).contains("Error 400");

        browser.signUp(ApiClient.uniqueUsername("errors"), PASSWORD);
        // A form posted to a page that is only read: 405, as a page.
        browser.open("/sources");
        browser.waitFor("#subscribe-form");
        browser.script("""
                const form = document.createElement('form');
                form.method = 'post';
                form.action = '/';
                const token = document.createElement('input');
                token.type = 'hidden';
                token.name = '_csrf';
                token.value = document.querySelector('meta[name="csrf-token"]').content;
                form.append(token);
                document.body.append(form);
                form.submit();""");
        browser.waitUntil("the 405 page", () -> browser.exists("h1") && browser.text("h1").equals("Not allowed here"));
        assertThat(browser.text("main")).contains("This page cannot be used that way.").contains("Error 405");

        // The same without the page's CSRF token: 403, as a page that offers to sign in again.
        browser.open("/sources");
        browser.waitFor("#subscribe-form");
        browser.script("""
                const form = document.createElement('form');
                form.method = 'post';
                form.action = '/sources';
                document.body.append(form);
                form.submit();""");
        browser.waitUntil("the 403 page", () -> browser.exists("h1") && browser.text("h1").equals("Not allowed"));
        assertThat(browser.find("main a[href='/login']").getText()).isEqualTo("Sign in");

        // The pages' own calls still get problems.
        browser.open("/sources");
        browser.waitFor("#subscribe-form");
        Object type = browser.asyncScript("""
                const done = arguments[arguments.length - 1];
                fetch('/api/v1/subscriptions/123/refresh', {method: 'POST', headers: {Accept: 'application/json',
                    [document.querySelector('meta[name="csrf-header"]').content]: document.querySelector('meta[name="csrf-token"]').content}})
                  .then(answer => done(answer.status + ' ' + answer.headers.get('Content-Type')));""");
        assertThat(String.valueOf(type)).isEqualTo("404 application/problem+json");
        // Chromium notes each error page's status; nothing else went wrong.
        assertThat(browser.consoleErrorsBesidesApiRefusals())
                .allMatch(error -> error.contains("Failed to load resource: the server responded with a status of"));
    }

    @Test
    void overHttpABrowsersNavigationGetsHtmlAndEveryoneElseTheProblem() {
        ApiClient api = new ApiClient(port);
        String navigation = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
        ApiResponse page = api.send(api.builder("/nope", null).setHeader("Accept", navigation).GET());
        assertThat(page.status()).isEqualTo(404);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.body()).contains("<h1>Not found</h1>");

        ApiResponse firewall = api.send(api.builder("/sources;x", null).setHeader("Accept", navigation).GET());
        assertThat(firewall.status()).isEqualTo(400);
        assertThat(firewall.header("Content-Type")).startsWith("text/html");
        assertThat(firewall.body()).contains("<h1>Bad request</h1>");

        for (HttpRequest.Builder client : new HttpRequest.Builder[] {
                api.builder("/nope", null).setHeader("Accept", "*/*").GET(),
                api.builder("/sources;x", null).setHeader("Accept", "application/json").GET(),
                api.builder("/api/v1/nope", null).setHeader("Accept", navigation).GET()}) {
            ApiResponse problem = api.send(client);
            assertThat(problem.header("Content-Type")).as(problem.toString()).startsWith("application/problem+json");
        }
    }
}

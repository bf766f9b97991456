package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.BrowserSession;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The front end's pages over HTTP: who may open them, what bad addresses get, the headers they carry. */
@ApiTest
class SitePagesTest {

    private static final List<String> SIGNED_IN_PAGES = List.of("/", "/sources", "/sources/1", "/items/1",
            "/people/somebody", "/groups", "/groups/1", "/settings", "/starred", "/rules");

    @LocalServerPort int port;

    @Test
    void signedOutVisitorsAreSentToSignIn() {
        BrowserSession visitor = new BrowserSession(port);
        for (String page : SIGNED_IN_PAGES) {
            ApiResponse response = visitor.get(page);
            assertThat(OAuthFlow.isRedirectTo(response, "/login")).as("%s: %s", page, response).isTrue();
        }
        assertThat(visitor.get("/signup").status()).isEqualTo(200);
        assertThat(visitor.get("/login").status()).isEqualTo(200);
    }

    @Test
    void signingInReturnsToThePageAsked() {
        TestUser alice = new ApiClient(port).newUser("pages");
        BrowserSession browser = new BrowserSession(port);
        browser.get("/settings");

        ApiResponse signIn = browser.signIn(alice.username(), alice.password());

        assertThat(OAuthFlow.isRedirectTo(signIn, "/settings")).as(signIn.toString()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/items/abc", "/items/0", "/items/-1", "/items/99999999999999999999999",
            "/sources/1e5", "/groups/%20", "/people/Bad-Name", "/people/x", "/people/%3Cscript%3E"})
    void addressesThatCanNameNothingAreNotFound(String path) {
        BrowserSession browser = signedIn();

        ApiResponse page = browser.get(path);

        assertThat(page.status()).as(page.toString()).isEqualTo(404);
        assertThat(page.body()).contains("Not found").doesNotContain("<script>");
    }

    @Test
    void pagesRunOnlyTheirOwnScripts() {
        BrowserSession browser = signedIn();
        List<String> pages = new ArrayList<>(SIGNED_IN_PAGES);
        pages.addAll(List.of("/login", "/signup"));
        for (String page : pages) {
            ApiResponse response = browser.get(page);
            assertThat(response.status()).as(page).isEqualTo(200);
            String policy = response.header("Content-Security-Policy");
            assertThat(policy).as(page).contains("script-src 'self'").contains("style-src 'self'")
                    .contains("object-src 'none'").contains("frame-ancestors 'none'");
            assertThat(response.header("X-Content-Type-Options")).isEqualTo("nosniff");
            assertThat(response.body()).as(page).doesNotContain("<script>").doesNotContain(" style=\"")
                    .doesNotContainPattern("\\son[a-z]+=\"");
        }
    }

    @Test
    void theSanitiserIsServedFromItsWebJar() {
        ApiResponse purify = new BrowserSession(port).get("/webjars/dompurify/dist/purify.es.mjs");

        assertThat(purify.status()).as(purify.toString()).isEqualTo(200);
        assertThat(purify.body()).contains("DOMPurify");
    }

    @Test
    void anUnknownAddressIsAPageForABrowserAndAProblemForAnApiClient() {
        BrowserSession browser = signedIn();
        String html = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

        ApiResponse page = browser.send("GET", "/nope", null, "Accept", html);
        assertThat(page.status()).as(page.toString()).isEqualTo(404);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.body()).contains("<h1>Not found</h1>").contains("/css/app.css").contains("class=\"site-header\"")
                .doesNotContain("\"status\"");
        assertThat(page.header("Content-Security-Policy")).contains("script-src 'self'");

        for (String[] client : List.of(new String[] {"/nope", "*/*"}, new String[] {"/nope", "application/json"},
                new String[] {"/api/v1/nope", html})) {
            ApiResponse problem = browser.send("GET", client[0], null, "Accept", client[1]);
            assertThat(problem.status()).as("%s with %s", client[0], client[1]).isEqualTo(404);
            assertThat(problem.header("Content-Type")).as("%s with %s", client[0], client[1]).startsWith("application/problem+json");
        }
    }

    private BrowserSession signedIn() {
        TestUser person = new ApiClient(port).newUser("pages");
        BrowserSession browser = new BrowserSession(port);
        browser.signIn(person.username(), person.password());
        return browser;
    }
}

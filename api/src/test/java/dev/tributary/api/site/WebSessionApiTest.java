package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.BrowserSession;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The web front end's way into the API: the signed-in browser session stands in for a bearer
 * token, unsafe requests need the session's CSRF token, another origin can't use the session, a
 * bearer header is judged alone, and the session (kept in Redis) works on every node.
 */
@ApiTest
class WebSessionApiTest {

    private static final String POST = "{\"text\":\"from the web\"}";

    private static ConfigurableApplicationContext secondNode;

    @LocalServerPort int port;
    private ApiClient api;
    private TestUser alice;
    private BrowserSession browser;

    @BeforeAll
    static void startSecondNode() {
        secondNode = new SpringApplicationBuilder(TributaryApplication.class)
                .run("--server.port=0", "--server.address=127.0.0.1", "--tributary.roles=api");
    }

    @AfterAll
    static void stopSecondNode() {
        secondNode.close();
    }

    @BeforeEach
    void signedIn() {
        api = new ApiClient(port);
        alice = api.newUser("websession");
        browser = new BrowserSession(port);
        ApiResponse signIn = browser.signIn(alice.username(), alice.password());
        assertThat(OAuthFlow.isRedirectTo(signIn, "/")).as(signIn.toString()).isTrue();
    }

    @Test
    void theSessionReadsTheApiAsThePerson() {
        ApiResponse me = browser.get("/api/v1/me");

        assertThat(me.status()).as(me.toString()).isEqualTo(200);
        assertThat(me.json().get("username").asString()).isEqualTo(alice.username());
        assertThat(me.header("RateLimit-Limit")).isNotNull();
    }

    @Test
    void anUnsafeRequestThroughTheSessionNeedsItsCsrfToken() {
        ApiResponse forged = browser.send("POST", "/api/v1/posts", POST);
        ApiResponse wrongToken = browser.send("POST", "/api/v1/posts", POST, "X-CSRF-TOKEN", "not-the-token");

        assertThat(forged.status()).as(forged.toString()).isEqualTo(403);
        assertThat(forged.contentType()).startsWith("application/problem+json");
        assertThat(forged.json().get("type").asString()).endsWith("csrf");
        assertThat(wrongToken.status()).as(wrongToken.toString()).isEqualTo(403);
        assertThat(api.get("/api/v1/users/" + alice.username() + "/feed", alice.token()).json()).isEmpty();

        ApiResponse posted = browser.send("POST", "/api/v1/posts", POST, "X-CSRF-TOKEN", browser.csrfToken());
        assertThat(posted.status()).as(posted.toString()).isEqualTo(201);
    }

    @Test
    void aBearerHeaderIsJudgedAloneEvenWithASignedInSession() {
        ApiResponse badToken = browser.send("GET", "/api/v1/me", null, "Authorization", "Bearer trb_not-a-token");
        TestUser bob = api.newUser("websession");
        ApiResponse bobsToken = browser.send("POST", "/api/v1/posts", POST, "Authorization", "Bearer " + bob.token());

        assertThat(badToken.status()).as(badToken.toString()).isEqualTo(401);
        assertThat(bobsToken.status()).as("no CSRF token needed with a bearer token: %s", bobsToken).isEqualTo(201);
        assertThat(api.get("/api/v1/users/" + bob.username() + "/feed", bob.token()).json()).hasSize(1);
        assertThat(api.get("/api/v1/users/" + alice.username() + "/feed", alice.token()).json()).isEmpty();
    }

    @Test
    void anotherOriginCannotUseTheSession() {
        ApiResponse preflight = browser.send(HttpRequest.newBuilder(URI.create(api.url("/api/v1/posts")))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "https://evil.example").header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type,x-csrf-token"));
        ApiResponse crossOriginRead = browser.send("GET", "/api/v1/me", null, "Origin", "https://evil.example");

        assertThat(preflight.header("Access-Control-Allow-Credentials")).isNull();
        assertThat(preflight.header("Access-Control-Allow-Headers")).doesNotContainIgnoringCase("x-csrf-token");
        assertThat(crossOriginRead.header("Access-Control-Allow-Credentials")).isNull();
    }

    @Test
    void signingOutEndsTheSessionForTheApi() {
        String csrf = browser.csrfToken();
        ApiResponse signOut = browser.send(HttpRequest.newBuilder(URI.create(api.url("/logout")))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("_csrf=" + csrf)));

        assertThat(signOut.status()).as(signOut.toString()).isEqualTo(302);
        assertThat(signOut.header("Location")).endsWith("/login?signed_out");
        ApiResponse me = browser.get("/api/v1/me");
        assertThat(me.status()).as(me.toString()).isEqualTo(401);
    }

    @Test
    void theSessionCookieIsHttpOnlyAndSameSite() {
        ApiResponse page = new BrowserSession(port).get("/login");

        assertThat(page.headers("Set-Cookie")).anySatisfy(cookie -> assertThat(cookie)
                .startsWith("TRIBUTARY_SESSION=").contains("HttpOnly").contains("SameSite=Lax").contains("Max-Age="));
    }

    @Test
    void anyNodeKnowsTheSession() {
        int otherPort = Integer.parseInt(secondNode.getEnvironment().getRequiredProperty("local.server.port"));
        BrowserSession sameBrowser = browser.on(otherPort);

        ApiResponse me = sameBrowser.get("/api/v1/me");
        ApiResponse posted = sameBrowser.send("POST", "/api/v1/posts", POST, "X-CSRF-TOKEN", browser.csrfToken());

        assertThat(me.status()).as(me.toString()).isEqualTo(200);
        assertThat(me.json().get("username").asString()).isEqualTo(alice.username());
        assertThat(posted.status()).as("the CSRF token from one node's page works on another: %s", posted).isEqualTo(201);
    }
}

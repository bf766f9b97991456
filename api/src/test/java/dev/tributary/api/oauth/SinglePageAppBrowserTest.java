package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A single-page app served from another origin (a second local HTTP server on its own port) uses
 * OAuth as a public client in Chromium with nothing but fetch: discovery, PKCE authorization (the
 * person signs in and consents on Tributary's pages), the code exchange, a refresh and an API call.
 * Every one of those fetches is cross-origin, so each works only if the server answers CORS.
 */
@BrowserTest
class SinglePageAppBrowserTest {

    /** The app: on "/", starts the flow; on "/cb", finishes it and writes what it got into #result. */
    private static final String PAGE = """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>SPA</title></head>
            <body><pre id="result"></pre><script>
            const server = "%s", clientId = "%s", redirectUri = location.origin + "/cb";
            const b64url = bytes => btoa(String.fromCharCode(...new Uint8Array(bytes)))
                .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
            const show = value => { document.getElementById("result").textContent = JSON.stringify(value); };
            async function json(response) {
              const body = await response.json();
              if (!response.ok) throw new Error(response.status + " " + JSON.stringify(body));
              return body;
            }
            async function form(url, fields) {
              return json(await fetch(url, {method: "POST", body: new URLSearchParams(fields),
                  headers: {"Content-Type": "application/x-www-form-urlencoded"}}));
            }
            async function start() {
              const metadata = await json(await fetch(server + "/.well-known/oauth-authorization-server"));
              const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
              const challenge = b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
              const state = b64url(crypto.getRandomValues(new Uint8Array(16)));
              sessionStorage.setItem("pkce", JSON.stringify({verifier, state, metadata}));
              location.assign(metadata.authorization_endpoint + "?" + new URLSearchParams({response_type: "code",
                  client_id: clientId, redirect_uri: redirectUri, scope: "read", state,
                  code_challenge: challenge, code_challenge_method: "S256"}));
            }
            async function finish() {
              const {verifier, state, metadata} = JSON.parse(sessionStorage.getItem("pkce"));
              const query = new URLSearchParams(location.search);
              if (query.get("state") !== state) throw new Error("state mismatch");
              if (query.get("iss") !== metadata.issuer) throw new Error("RFC 9207 iss mismatch: " + query.get("iss"));
              const tokens = await form(metadata.token_endpoint, {grant_type: "authorization_code",
                  code: query.get("code"), redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId});
              const refreshed = await form(metadata.token_endpoint, {grant_type: "refresh_token",
                  refresh_token: tokens.refresh_token, client_id: clientId});
              const meResponse = await fetch(server + "/api/v1/me",
                  {headers: {"Authorization": "Bearer " + refreshed.access_token}});
              const me = await json(meResponse);
              show({issuer: metadata.issuer, issAdvertised: metadata.authorization_response_iss_parameter_supported,
                  refreshed: refreshed.access_token !== tokens.access_token,
                  rotated: refreshed.refresh_token !== tokens.refresh_token, username: me.username,
                  rateLimit: meResponse.headers.get("RateLimit-Limit")});
            }
            (location.pathname === "/cb" ? finish() : start()).catch(error => show({error: String(error)}));
            </script></body></html>
            """;

    @LocalServerPort int port;
    private HttpServer spa;
    private ApiClient api;

    @BeforeEach
    void start() throws IOException {
        api = new ApiClient(port);
        spa = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        spa.start();
    }

    @AfterEach
    void stop() {
        spa.stop(0);
    }

    @Test
    void aPublicClientOnAnotherOriginDiscoversAuthorizesExchangesRefreshesAndCalls(Browser browser) {
        String origin = "http://127.0.0.1:" + spa.getAddress().getPort();
        ApiResponse registered = api.post("/api/v1/apps", null, Map.of("client_name", "SPA", "redirect_uris",
                List.of(origin + "/cb"), "scopes", List.of("read"), "token_endpoint_auth_method", "none"));
        assertThat(registered.status()).as(registered.toString()).isEqualTo(201);
        byte[] page = PAGE.formatted(browser.base(), registered.json().path("client_id").asString())
                .getBytes(StandardCharsets.UTF_8);
        spa.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            try (OutputStream body = exchange.getResponseBody()) {
                body.write(page);
            }
        });
        TestUser ann = api.newUser("spa");
        browser.signIn(ann.username(), ann.password());

        browser.open("/").script("location.assign(arguments[0])", origin + "/");
        browser.waitUntil("the consent page", () -> browser.url().startsWith(browser.base() + "/oauth2/consent"));
        browser.click("#allow button[type=submit]");
        browser.waitUntil("the app's result", () -> browser.url().startsWith(origin + "/cb")
                && !browser.text("#result").isEmpty());

        JsonNode result = JsonMapper.builder().build().readTree(browser.text("#result"));
        assertThat(result.path("error").isMissingNode()).as(result.toString()).isTrue();
        assertThat(result.path("username").asString()).isEqualTo(ann.username());
        assertThat(result.path("issuer").asString()).isNotEmpty();
        assertThat(result.path("issAdvertised").asBoolean()).as("RFC 9207, and the iss came back").isTrue();
        assertThat(result.path("refreshed").asBoolean()).isTrue();
        assertThat(result.path("rotated").asBoolean()).isTrue();
        assertThat(result.path("rateLimit").asString()).as("an exposed header").isNotEmpty();
    }
}

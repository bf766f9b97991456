package dev.tributary.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The CORS policy (docs/api.md): any origin, no credentials, on what a browser app calls by script only. */
@ApiTest
class CorsApiTest {

    private static final String ORIGIN = "https://spa.example";

    @LocalServerPort int port;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void thePathsABrowserAppReadsAnswerCorsWithoutCredentials() {
        TestUser ann = api.newUser("cors");
        for (String path : List.of("/.well-known/oauth-authorization-server", "/oauth2/jwks", "/v3/api-docs",
                "/feeds/users/" + ann.username() + ".rss", "/api/v1/me")) {
            ApiResponse answer = api.send(api.builder(path, path.startsWith("/api") ? ann.token() : null)
                    .header("Origin", ORIGIN).header("Accept", "*/*").GET());

            assertThat(answer.status()).as(path + " " + answer).isEqualTo(200);
            assertThat(answer.header("Access-Control-Allow-Origin")).as(path).isIn("*", ORIGIN);
            assertThat(answer.header("Access-Control-Allow-Credentials")).as(path).isNull();
            assertThat(answer.header("Access-Control-Expose-Headers")).as(path).contains("RateLimit-Remaining", "ETag", "Link");
        }
    }

    @Test
    void theTokenAndRevocationEndpointsAnswerPreflightsAndTheirErrorsCarryCors() {
        for (String path : List.of("/oauth2/token", "/oauth2/revoke")) {
            ApiResponse preflight = preflight(path, "POST", "content-type,authorization");
            ApiResponse refused = api.send(api.builder(path, null).header("Origin", ORIGIN)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("grant_type=refresh_token&refresh_token=x&client_id=nobody")));

            assertThat(preflight.status()).as(path + " " + preflight).isEqualTo(200);
            assertThat(preflight.header("Access-Control-Allow-Origin")).isIn("*", ORIGIN);
            assertThat(preflight.header("Access-Control-Allow-Methods")).contains("POST");
            assertThat(preflight.header("Access-Control-Allow-Headers")).containsIgnoringCase("authorization");
            assertThat(preflight.header("Access-Control-Allow-Credentials")).isNull();
            assertThat(refused.status()).as(path + " " + refused).isBetween(400, 401);
            assertThat(refused.header("Access-Control-Allow-Origin")).as("a script must be able to read the error").isIn("*", ORIGIN);
        }
    }

    @Test
    void pagesAnswerNoCors() {
        for (String path : List.of("/login", "/oauth2/authorize?response_type=code&client_id=x", "/signup")) {
            ApiResponse answer = api.send(api.builder(path, null).header("Origin", ORIGIN).header("Accept", "text/html").GET());

            assertThat(answer.header("Access-Control-Allow-Origin")).as(path + " " + answer).isNull();
        }
        ApiResponse preflight = preflight("/login", "POST", "content-type");
        assertThat(preflight.header("Access-Control-Allow-Origin")).isNull();
    }

    private ApiResponse preflight(String path, String method, String headers) {
        return api.send(api.builder(path, null).header("Origin", ORIGIN).header("Access-Control-Request-Method", method)
                .header("Access-Control-Request-Headers", headers).method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
    }
}

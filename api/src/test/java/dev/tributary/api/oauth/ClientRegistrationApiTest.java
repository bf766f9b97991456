package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** RFC 7591 registration at the metadata's registration_endpoint, and RFC 9207's iss on the authorization response. */
@ApiTest
class ClientRegistrationApiTest {

    @LocalServerPort int port;
    private ApiClient api;
    private OAuthFlow flow;
    private JsonNode metadata;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        flow = new OAuthFlow(port);
        metadata = api.get("/.well-known/oauth-authorization-server", null).json();
    }

    private ApiResponse register(Object body) {
        return api.post(URI.create(metadata.path("registration_endpoint").asString()).getPath(), null, body);
    }

    @Test
    void theMetadataAdvertisesRegistrationAndTheIssuerParameter() {
        assertThat(metadata.path("registration_endpoint").asString()).isEqualTo(metadata.path("issuer").asString() + "/oauth2/register");
        assertThat(metadata.path("authorization_response_iss_parameter_supported").asBoolean()).isTrue();
    }

    @Test
    void anAppRegistersWithAScopeStringIgnoringMetadataItDoesNotUseAndThenSignsPeopleIn() {
        ApiResponse registered = register(Map.of("client_name", "Generic client", "redirect_uris", List.of(OAuthFlow.REDIRECT_URI),
                "scope", "read write", "grant_types", List.of("authorization_code", "refresh_token"),
                "response_types", List.of("code"), "logo_uri", "https://app.example/logo.png", "contacts", List.of("a@app.example")));

        assertThat(registered.status()).as(registered.toString()).isEqualTo(201);
        assertThat(registered.contentType()).startsWith("application/json");
        JsonNode client = registered.json();
        assertThat(client.path("scope").asString()).isEqualTo("read write");
        assertThat(client.path("token_endpoint_auth_method").asString()).isEqualTo("client_secret_basic");
        assertThat(client.path("client_secret_expires_at").asLong()).isZero();
        assertThat(client.path("client_id_issued_at").asLong()).isPositive();
        TestUser ann = api.newUser("dcr");
        OAuthFlow.App app = new OAuthFlow.App(client.path("client_id").asString(), client.path("client_secret").asString(),
                OAuthFlow.REDIRECT_URI, "client_secret_basic");
        OAuthFlow.Tokens tokens = flow.authorize(ann, app, "read");
        assertThat(api.get("/api/v1/me", tokens.accessToken()).json().path("username").asString()).isEqualTo(ann.username());
    }

    @Test
    void aPublicClientGetsNoSecret() {
        ApiResponse registered = register(Map.of("client_name", "SPA", "redirect_uris", List.of("http://127.0.0.1:8123/cb"),
                "token_endpoint_auth_method", "none"));

        assertThat(registered.status()).as(registered.toString()).isEqualTo(201);
        assertThat(registered.json().has("client_secret")).isFalse();
        assertThat(registered.json().path("scope").asString()).as("the default").isEqualTo("read");
    }

    @Test
    void refusalsUseRfc7591sErrorCodes() {
        Map<Object, String> refusals = Map.of(
                Map.of("client_name", "x", "redirect_uris", List.of("http://app.example/cb")), "invalid_redirect_uri",
                Map.of("client_name", "x"), "invalid_redirect_uri",
                Map.of("client_name", "x", "redirect_uris", List.of(OAuthFlow.REDIRECT_URI), "scope", "read account"), "invalid_client_metadata",
                Map.of("client_name", " ", "redirect_uris", List.of(OAuthFlow.REDIRECT_URI)), "invalid_client_metadata",
                Map.of("client_name", "x", "redirect_uris", List.of(OAuthFlow.REDIRECT_URI), "grant_types", List.of("client_credentials")),
                "invalid_client_metadata",
                Map.of("client_name", "x", "redirect_uris", List.of(OAuthFlow.REDIRECT_URI), "token_endpoint_auth_method", "private_key_jwt"),
                "invalid_client_metadata");
        refusals.forEach((body, error) -> {
            ApiResponse refused = register(body);
            assertThat(refused.status()).as(body + " " + refused).isEqualTo(400);
            assertThat(refused.json().path("error").asString()).as(body.toString()).isEqualTo(error);
            assertThat(refused.json().path("error_description").asString()).isNotEmpty();
        });
    }

    @Test
    void theAuthorizationResponseNamesTheIssuerOnACodeAndOnARefusal() {
        TestUser bea = api.newUser("iss");
        OAuthFlow.App app = flow.registerApp("client_secret_basic", "read");
        OAuthFlow.Browser browser = flow.browser();
        assertThat(browser.signIn(bea.username(), bea.password()).status()).isEqualTo(302);
        OAuthFlow.Pkce pkce = OAuthFlow.Pkce.create();

        ApiResponse consent = browser.get(OAuthFlow.authorizePath(app, "read", "s1", pkce, app.redirectUri()));
        ApiResponse denied = browser.approve(browser.get(consent.header("Location")), List.of());
        ApiResponse again = browser.get(OAuthFlow.authorizePath(app, "read", "s2", pkce, app.redirectUri()));
        ApiResponse allowed = browser.approve(browser.get(again.header("Location")), null);

        String issuer = metadata.path("issuer").asString();
        assertThat(OAuthFlow.query(denied.header("Location"))).as(denied.toString())
                .containsEntry("error", "access_denied").containsEntry("state", "s1").containsEntry("iss", issuer);
        assertThat(OAuthFlow.query(allowed.header("Location"))).as(allowed.toString())
                .containsKey("code").containsEntry("state", "s2").containsEntry("iss", issuer);
    }
}

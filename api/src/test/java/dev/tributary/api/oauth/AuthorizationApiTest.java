package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.OAuthFlow.App;
import dev.tributary.api.testing.OAuthFlow.Tokens;
import dev.tributary.api.testing.TestUser;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** GET and DELETE /api/v1/authorizations: a person's authorised apps, and nobody else's. */
@ApiTest
class AuthorizationApiTest {

    @LocalServerPort int port;
    private OAuthFlow flow;
    private ApiClient api;

    @BeforeEach
    void client() {
        flow = new OAuthFlow(port);
        api = flow.api();
    }

    @Test
    void aPersonSeesTheAppsTheyAuthorisedAndWithdrawingOneEndsItsAccess() {
        TestUser alice = api.newUser("az");
        App app = flow.registerApp("client_secret_basic", "read", "write");
        Instant before = Instant.now().minusSeconds(5);
        Tokens tokens = flow.authorize(alice, app, "read", "write");

        ApiResponse listed = api.get("/api/v1/authorizations", alice.token());
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().size()).isEqualTo(1);
        JsonNode entry = listed.json().get(0);
        assertThat(entry.path("client_id").asString()).isEqualTo(app.clientId());
        assertThat(entry.path("client_name").asString()).isEqualTo("Test app client_secret_basic");
        assertThat(entry.path("scopes").toString()).isEqualTo("[\"read\",\"write\"]");
        assertThat(Instant.parse(entry.path("authorised_at").asString())).isAfter(before);

        assertThat(api.delete("/api/v1/authorizations/" + app.clientId(), alice.token()).status()).isEqualTo(204);

        assertThat(api.get("/api/v1/me", tokens.accessToken()).status()).isEqualTo(401);
        assertThat(flow.refresh(app, tokens.refreshToken()).status()).isEqualTo(400);
        assertThat(api.get("/api/v1/authorizations", alice.token()).json().size()).isZero();
        assertThat(api.delete("/api/v1/authorizations/" + app.clientId(), alice.token()).status()).isEqualTo(404);
        Tokens again = flow.authorize(alice, app, "read");
        assertThat(api.get("/api/v1/me", again.accessToken()).status()).as("authorising anew works").isEqualTo(200);
    }

    @Test
    void anAppWhoseGrantWasRevokedIsNoLongerListedWhileOneWithALiveGrantIs() {
        TestUser cleo = api.newUser("az");
        App revokedApp = flow.registerApp("client_secret_basic", "read", "write");
        App accessOnlyApp = flow.registerApp("client_secret_basic", "read");
        Tokens revokedTokens = flow.authorize(cleo, revokedApp, "read", "write");
        Tokens accessOnlyTokens = flow.authorize(cleo, accessOnlyApp, "read");
        assertThat(clientIds(cleo)).containsExactlyInAnyOrder(revokedApp.clientId(), accessOnlyApp.clientId());

        assertThat(flow.revoke(revokedApp, revokedTokens.refreshToken()).status()).isEqualTo(200);
        assertThat(flow.revoke(accessOnlyApp, accessOnlyTokens.accessToken()).status()).isEqualTo(200);

        assertThat(api.get("/api/v1/me", revokedTokens.accessToken()).status()).isEqualTo(401);
        assertThat(clientIds(cleo)).as("the revoked grant is over; the other app may still refresh")
                .containsExactly(accessOnlyApp.clientId());
        assertThat(flow.refresh(accessOnlyApp, accessOnlyTokens.refreshToken()).status()).isEqualTo(200);
        Tokens again = flow.authorize(cleo, revokedApp, "read");
        assertThat(clientIds(cleo)).as("authorised anew").contains(revokedApp.clientId());
        assertThat(api.get("/api/v1/me", again.accessToken()).status()).isEqualTo(200);
    }

    private java.util.List<String> clientIds(TestUser person) {
        ApiResponse listed = api.get("/api/v1/authorizations", person.token());
        assertThat(listed.status()).as(listed.toString()).isEqualTo(200);
        return listed.json().valueStream().map(app -> app.path("client_id").asString()).toList();
    }

    @Test
    void nobodySeesOrWithdrawsAnotherPersonsAuthorisations() {
        TestUser alice = api.newUser("az");
        TestUser mallory = api.newUser("az");
        App app = flow.registerApp("client_secret_basic", "read", "write");
        Tokens alicesTokens = flow.authorize(alice, app, "read");
        Tokens mallorysTokens = flow.tokensFor(mallory, "read", "write");

        assertThat(api.get("/api/v1/authorizations", mallory.token()).body()).doesNotContain(app.clientId());
        assertThat(api.get("/api/v1/authorizations", mallorysTokens.accessToken()).status()).as("apps manage no account")
                .isEqualTo(403);
        ApiResponse withdraw = api.delete("/api/v1/authorizations/" + app.clientId(), mallory.token());
        assertThat(withdraw.status()).isEqualTo(404);
        assertThat(withdraw.contentType()).startsWith("application/problem+json");
        assertThat(api.delete("/api/v1/authorizations/" + app.clientId(), mallorysTokens.accessToken()).status())
                .isEqualTo(403);

        assertThat(api.get("/api/v1/me", alicesTokens.accessToken()).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/authorizations", alice.token()).body()).contains(app.clientId());
    }

    @Test
    void theEndpointsNeedATokenAndNameOnlyRealApps() {
        TestUser bob = api.newUser("az");
        String readOnly = api.createToken(bob.username(), bob.password(), "ro", "read");

        assertThat(api.get("/api/v1/authorizations", null).status()).isEqualTo(401);
        assertThat(api.delete("/api/v1/authorizations/x", null).status()).isEqualTo(401);
        assertThat(api.delete("/api/v1/authorizations/x", readOnly).status()).isEqualTo(403);
        assertThat(api.delete("/api/v1/authorizations/no-such-app", bob.token()).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/authorizations/" + "x".repeat(500), bob.token()).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/authorizations/%27%20OR%201%3D1", bob.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/authorizations", readOnly).status()).as("listing them is account management too")
                .isEqualTo(403);
    }
}

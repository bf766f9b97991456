package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** POST /api/v1/apps: registration and everything it refuses. */
@ApiTest
class AppApiTest {

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    private static Map<String, Object> app(Object... overrides) {
        Map<String, Object> body = new HashMap<>(Map.of("client_name", "Reader", "redirect_uris",
                List.of("https://reader.example/cb"), "scopes", List.of("read", "write")));
        for (int i = 0; i < overrides.length; i += 2) {
            body.put((String) overrides[i], overrides[i + 1]);
        }
        return body;
    }

    @Test
    void aConfidentialAppGetsItsSecretOnceAndOnlyItsHashIsStored() {
        ApiResponse created = api.post("/api/v1/apps", null, app("redirect_uris",
                List.of("https://reader.example/cb", "http://127.0.0.1:8080/cb", "com.example.reader:/cb")));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode json = created.json();
        String clientId = json.path("client_id").asString();
        String secret = json.path("client_secret").asString();
        assertThat(clientId).isNotBlank();
        assertThat(secret).hasSizeGreaterThan(30);
        assertThat(json.path("client_name").asString()).isEqualTo("Reader");
        assertThat(json.path("redirect_uris").toString())
                .isEqualTo("[\"https://reader.example/cb\",\"http://127.0.0.1:8080/cb\",\"com.example.reader:/cb\"]");
        assertThat(json.path("scopes").toString()).isEqualTo("[\"read\",\"write\"]");
        assertThat(json.path("token_endpoint_auth_method").asString()).isEqualTo("client_secret_basic");
        String stored = jdbc.sql("SELECT client_secret FROM oauth2_registered_client WHERE client_id = :id")
                .param("id", clientId).query(String.class).single();
        assertThat(stored).startsWith("{bcrypt}").doesNotContain(secret);
    }

    @Test
    void aPublicAppHasNoSecret() {
        ApiResponse created = api.post("/api/v1/apps", null, app("token_endpoint_auth_method", "none",
                "scopes", List.of("read")));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().path("client_secret").isNull()).isTrue();
        assertThat(created.json().path("token_endpoint_auth_method").asString()).isEqualTo("none");
        assertThat(created.json().path("scopes").toString()).isEqualTo("[\"read\"]");
    }

    @Test
    void eachAppGetsItsOwnClientId() {
        String first = api.post("/api/v1/apps", null, app()).json().path("client_id").asString();
        String second = api.post("/api/v1/apps", null, app()).json().path("client_id").asString();

        assertThat(first).isNotEqualTo(second);
    }

    @Test
    void badRedirectUrisAreRefusedNamingTheOne() {
        for (String uri : List.of("javascript:alert(1)", "JAVASCRIPT:alert(document.cookie)", "data:text/html,hi",
                "/relative/cb", "https://reader.example/cb#frag", "http://reader.example/cb", "http://localhost/cb",
                "file:///etc/passwd", "myapp:/cb", "not a uri", "https://user:pw@reader.example/cb", "",
                "https://reader.example/" + "x".repeat(600))) {
            ApiResponse response = api.post("/api/v1/apps", null, app("redirect_uris", List.of("https://ok.example/cb", uri)));

            assertThat(response.status()).as(uri).isEqualTo(400);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.json().path("errors").get(0).path("field").asString()).as(uri).isEqualTo("redirect_uris[1]");
        }
    }

    @Test
    void badFieldsAreRefusedWithTheFieldNamed() {
        Map<String, Map<String, Object>> cases = new HashMap<>();
        cases.put("client_name", app("client_name", "x".repeat(101)));
        cases.put("client_name ", app("client_name", "   "));
        cases.put("client_name  ", app("client_name", "Evil\u202eppa"));
        cases.put("client_name   ", app("client_name", "line\nbreak"));
        cases.put("redirect_uris", app("redirect_uris", List.of()));
        cases.put("redirect_uris ", app("redirect_uris", Collections.nCopies(11, "https://reader.example/cb")));
        cases.put("scopes", app("scopes", List.of()));
        cases.put("scopes ", app("scopes", List.of("admin")));
        cases.put("scopes  ", app("scopes", List.of("read", "write", "openid")));
        cases.put("token_endpoint_auth_method", app("token_endpoint_auth_method", "private_key_jwt"));
        Map<String, Object> noName = app();
        noName.remove("client_name");
        cases.put("client_name    ", noName);

        cases.forEach((field, body) -> {
            ApiResponse response = api.post("/api/v1/apps", null, body);
            assertThat(response.status()).as(field + " " + response).isEqualTo(400);
            assertThat(response.json().path("errors").get(0).path("field").asString()).as(response.toString())
                    .isEqualTo(field.strip());
        });
    }

    @Test
    void malformedBodiesAreRefused() {
        for (String body : List.of("{\"client_name\":", "[]", "null", "{\"client_name\": 5, \"redirect_uris\": {}}",
                "{\"client_name\": \"a\", \"redirect_uris\": \"https://a.example/cb\", \"scopes\": [\"read\"]}",
                "{\"client_name\": \"a\", \"redirect_uris\": [\"https://a.example/cb\"], \"scopes\": [\"read\"], \"admin\": true}",
                "{\"client_name\": \"a\", \"redirect_uris\": [\"https://a.example/cb\"], \"scopes\": [\"read\"], "
                        + "\"client_secret\": \"mine\"}")) {
            ApiResponse response = api.post("/api/v1/apps", null, body);

            assertThat(response.status()).as(body + " " + response).isEqualTo(400);
            assertThat(response.contentType()).startsWith("application/problem+json");
        }
        ApiResponse form = api.send("POST", "/api/v1/apps", null, "client_name=a", "application/x-www-form-urlencoded");
        assertThat(form.status()).isEqualTo(415);
    }
}

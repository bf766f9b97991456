package dev.tributary.api.account;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

@ApiTest
class AccountApiTest {

    @LocalServerPort int port;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void registrationAnswersTheAccountWithoutItsPassword() {
        String username = ApiClient.uniqueUsername("reg");

        ApiResponse created = api.post("/api/v1/accounts", null, Map.of("username", username, "password", "s3cret-enough",
                "email", "someone@example.org"));

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().path("username").asString()).isEqualTo(username);
        assertThat(created.json().path("id").isString()).as("ids are strings").isTrue();
        assertThat(Long.parseLong(created.json().path("id").asString())).isPositive();
        assertThat(Instant.parse(created.json().path("created_at").asString())).isBefore(Instant.now().plusSeconds(1));
        assertThat(created.body()).doesNotContain("s3cret").doesNotContain("password");
    }

    @Test
    void aTakenUsernameIsAConflict() {
        TestUser alice = api.newUser("taken");

        ApiResponse again = api.post("/api/v1/accounts", null, Map.of("username", alice.username(), "password", "another-password"));

        assertThat(again.status()).isEqualTo(409);
        assertThat(again.contentType()).startsWith("application/problem+json");
        assertThat(again.json().path("detail").asString()).contains(alice.username());
    }

    @Test
    void badUsernamesAndPasswordsAreListedAsFieldErrors() {
        ApiResponse response = api.post("/api/v1/accounts", null, Map.of("username", "Bad Name!", "password", "short"));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().path("errors").findValuesAsString("field")).containsExactlyInAnyOrder("username", "password");
        assertThat(response.json().path("title").asString()).isNotEmpty();
        assertThat(response.json().path("type").asString()).isNotEmpty();
    }

    @Test
    void aPasswordPastBcryptsLimitIsRefusedRatherThanCut() {
        String longPassword = "é".repeat(40);

        ApiResponse response = api.post("/api/v1/accounts", null,
                Map.of("username", ApiClient.uniqueUsername("long"), "password", longPassword));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().path("errors").findValuesAsString("field")).containsExactly("password");
    }

    @Test
    void malformedJsonWrongTypesAndUnknownFieldsAreClear400s() {
        ApiResponse malformed = api.post("/api/v1/accounts", null, "{\"username\": ");
        ApiResponse wrongType = api.post("/api/v1/accounts", null, "{\"username\": [1], \"password\": \"abcdefghij\"}");
        ApiResponse unknown = api.post("/api/v1/accounts", null,
                Map.of("username", ApiClient.uniqueUsername("unk"), "password", "abcdefghij", "admin", true));
        ApiResponse missing = api.post("/api/v1/accounts", null, null);

        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.contentType()).startsWith("application/problem+json");
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(wrongType.json().path("errors").findValuesAsString("field")).containsExactly("username");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().path("errors").findValuesAsString("field")).containsExactly("admin");
        assertThat(missing.status()).isEqualTo(400);
    }

    @Test
    void oversizeBodiesAre413AndWrongContentTypes415() {
        String huge = "{\"username\": \"" + "a".repeat(3 * 1024 * 1024) + "\", \"password\": \"abcdefghij\"}";

        ApiResponse tooLarge = api.post("/api/v1/accounts", null, huge);
        ApiResponse xml = api.send("POST", "/api/v1/accounts", null, "<account/>", "application/xml");

        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.contentType()).startsWith("application/problem+json");
        assertThat(xml.status()).isEqualTo(415);
        assertThat(xml.contentType()).startsWith("application/problem+json");
    }

    @Test
    void meShowsTheCallersAccountButNeverItsFeedToken() {
        TestUser bob = api.newUser("me");

        ApiResponse me = api.get("/api/v1/me", bob.token());

        assertThat(me.status()).isEqualTo(200);
        assertThat(me.json().path("id").asString()).isEqualTo(bob.id());
        assertThat(me.json().path("username").asString()).isEqualTo(bob.username());
        assertThat(me.json().has("created_at")).isTrue();
        assertThat(me.json().has("feed_token")).as("only a hash is kept: " + me.body()).isFalse();
    }

    @Test
    void makingAFeedTokenShowsItOnceAndReplacesTheOneBefore() {
        TestUser carol = api.newUser("rot");
        String before = api.post("/api/v1/me/feed_token", carol.token(), null).json().path("feed_token").asString();

        ApiResponse rotated = api.post("/api/v1/me/feed_token", carol.token(), null);

        assertThat(rotated.status()).isEqualTo(200);
        assertThat(rotated.json().path("username").asString()).isEqualTo(carol.username());
        String after = rotated.json().path("feed_token").asString();
        assertThat(after).hasSizeGreaterThan(20).isNotEqualTo(before);
        assertThat(api.get("/api/v1/me", carol.token()).body()).doesNotContain(after);
        assertThat(feedStatus(before)).isEqualTo(404);
        assertThat(feedStatus(after)).isEqualTo(200);
    }

    private int feedStatus(String token) {
        return api.send(api.builder("/feeds/home.rss?token=" + token, null).header("Accept", "*/*").GET()).status();
    }

    @Test
    void withoutAValidTokenTheApiAnswers401AsAProblem() {
        ApiResponse none = api.get("/api/v1/me", null);
        ApiResponse unknown = api.get("/api/v1/me", "trb_thisisnotatoken");
        ApiResponse garbage = api.get("/api/v1/me", "a.b.c");

        assertThat(none.status()).isEqualTo(401);
        assertThat(none.contentType()).startsWith("application/problem+json");
        assertThat(none.header("WWW-Authenticate")).startsWith("Bearer");
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(unknown.header("WWW-Authenticate")).contains("invalid_token");
        assertThat(garbage.status()).isEqualTo(401);
    }

    @Test
    void unknownApiPathsAre404Problems() {
        TestUser dan = api.newUser("nf");

        ApiResponse response = api.get("/api/v1/no-such-thing", dan.token());

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/problem+json");
    }
}

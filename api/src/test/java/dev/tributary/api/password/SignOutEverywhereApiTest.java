package dev.tributary.api.password;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.BrowserSession;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.ReaderClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.NewIds;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * POST /api/v1/me/sessions/revoke: every way the person is signed in ends (their browser sessions,
 * the caller's own included, personal tokens, Fever keys, app grants, Google Reader logins, XMPP
 * push with what waits for it), and nobody else's.
 */
@ApiTest
class SignOutEverywhereApiTest {

    private static final String PATH = "/api/v1/me/sessions/revoke";

    @LocalServerPort int port;
    @Autowired StringRedisTemplate redis;
    @Autowired JdbcTemplate jdbc;
    @Autowired NewIds ids;
    private ApiClient api;
    private ReaderClient reader;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        reader = new ReaderClient(api);
    }

    @AfterEach
    void forgetThisAddressesAttempts() {
        // Tests sign in from 127.0.0.1: its count must not lock other tests out.
        redis.delete("login:throttle:addr:127.0.0.1");
    }

    @Test
    void everyCredentialOfThePersonEndsAndNobodyElses() {
        TestUser ann = api.newUser("out");
        TestUser bob = api.newUser("out");
        BrowserSession here = BrowserSession.signedIn(port, ann);
        BrowserSession elsewhere = BrowserSession.signedIn(port, ann);
        BrowserSession bobs = BrowserSession.signedIn(port, bob);
        String script = tokenWith(ann, false);
        String feverKey = md5(ann.username() + ":" + tokenWith(ann, true));
        String readerByPassword = reader.login(ann.username(), ann.password());
        String readerByToken = reader.login(ann.username(), script);
        OAuthFlow oauth = new OAuthFlow(port);
        OAuthFlow.App app = oauth.registerApp("client_secret_basic", "read", "write");
        OAuthFlow.Tokens granted = oauth.authorize(ann, app, "read", "write");
        OAuthFlow.Tokens bobsGrant = oauth.authorize(bob, app, "read", "write");
        String bobsReader = reader.login(bob.username(), bob.password());
        long link = linkedXmppWithAWaitingNotification(ann);
        linkedXmppWithAWaitingNotification(bob);
        assertThat(api.get("/api/v1/me", granted.accessToken()).status()).isEqualTo(200);
        assertThat(feverAuth(feverKey)).isEqualTo(1);
        assertThat(userInfo(readerByPassword).status()).isEqualTo(200);
        assertThat(userInfo(readerByToken).status()).isEqualTo(200);

        ApiResponse out = here.send("POST", PATH, null, "X-CSRF-TOKEN", here.csrfToken());

        assertThat(out.status()).as(out.toString()).isEqualTo(204);
        assertThat(here.get("/api/v1/me").status()).as("the caller's own session").isEqualTo(401);
        assertThat(elsewhere.get("/api/v1/me").status()).as("another session").isEqualTo(401);
        ApiResponse token = api.get("/api/v1/me", ann.token());
        assertThat(token.status()).as("a personal token").isEqualTo(401);
        assertThat(token.header("WWW-Authenticate")).contains("invalid_token");
        assertThat(api.get("/api/v1/me", script).status()).isEqualTo(401);
        assertThat(feverAuth(feverKey)).as("the Fever key").isZero();
        assertThat(userInfo(readerByPassword).status()).as("a Reader login made with the password").isEqualTo(401);
        assertThat(userInfo(readerByToken).status()).as("a Reader login made with a token").isEqualTo(401);
        assertThat(api.get("/api/v1/me", granted.accessToken()).status()).as("the app's access token").isEqualTo(401);
        assertThat(oauth.refresh(app, granted.refreshToken()).status()).as("the app's refresh token").isEqualTo(400);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM xmpp_links WHERE user_id = ?", Integer.class, ann.numericId()))
                .as("the XMPP link").isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM xmpp_outbox WHERE user_id = ? OR link_id = ?", Integer.class,
                ann.numericId(), link)).as("what waited for it").isZero();
        assertThat(OAuthFlow.isRedirectTo(new BrowserSession(port).signIn(ann.username(), ann.password()), "/"))
                .as("the password still signs in").isTrue();

        assertThat(bobs.get("/api/v1/me").status()).isEqualTo(200);
        assertThat(api.get("/api/v1/me", bob.token()).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/me", bobsGrant.accessToken()).status()).isEqualTo(200);
        assertThat(userInfo(bobsReader).status()).isEqualTo(200);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM xmpp_outbox WHERE user_id = ?", Integer.class, bob.numericId()))
                .isEqualTo(1);
    }

    @Test
    void aTokenWithAccountMaySignOutEverywhereAndABodyIsIgnored() {
        TestUser cat = api.newUser("out");
        BrowserSession browser = BrowserSession.signedIn(port, cat);

        ApiResponse out = api.send("POST", PATH, cat.token(), "{\"anything\": true}", "application/json");

        assertThat(out.status()).as(out.toString()).isEqualTo(204);
        assertThat(browser.get("/api/v1/me").status()).isEqualTo(401);
        assertThat(api.get("/api/v1/me", cat.token()).status()).isEqualTo(401);
    }

    @Test
    void anAppOrNobodyCannot() {
        TestUser dee = api.newUser("out");
        OAuthFlow.Tokens app = new OAuthFlow(port).tokensFor(dee, "read", "write");

        ApiResponse refused = api.post(PATH, app.accessToken(), Map.of());
        ApiResponse anonymous = api.post(PATH, null, Map.of());

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.header("WWW-Authenticate")).contains("insufficient_scope");
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(api.get("/api/v1/me", dee.token()).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/me", app.accessToken()).status()).isEqualTo(200);
    }

    /** A proved link and a notification waiting for it, as fan-out leaves them (no XMPP server needed). */
    private long linkedXmppWithAWaitingNotification(TestUser user) {
        long link = ids.next();
        jdbc.update("""
                INSERT INTO xmpp_links (user_id, id, address, verified_address, created_at, verified_at)
                VALUES (?, ?, ?, ?, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))
                """, user.numericId(), link, user.username() + "@xmpp.test", user.username() + "@xmpp.test");
        jdbc.update("""
                INSERT INTO xmpp_outbox (id, kind, item_id, source_id, user_id, link_id, payload, due_at, created_at)
                VALUES (?, 'notify', ?, 0, ?, ?, NULL, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))
                """, ids.next(), ids.next(), user.numericId(), link);
        return link;
    }

    /** A new personal token of the user (read, write), made with the password; returns its secret. */
    private String tokenWith(TestUser user, boolean fever) {
        ApiResponse made = api.send(api.builder("/api/v1/tokens", null)
                .header("Authorization", ApiClient.basic(user.username(), user.password()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"name\": \"x\", \"scopes\": [\"read\", \"write\"], \"fever\": " + fever + "}")));
        assertThat(made.status()).as(made.toString()).isEqualTo(201);
        return made.json().path("token").asString();
    }

    private int feverAuth(String key) {
        ApiResponse answer = api.send(api.builder("/fever/?api", null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("api_key=" + key)));
        return answer.status() == 200 ? answer.json().path("auth").asInt() : -answer.status();
    }

    private static String md5(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private ApiResponse userInfo(String auth) {
        return reader.get("/reader/api/0/user-info", auth);
    }
}

package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.OAuthFlow.App;
import dev.tributary.api.testing.OAuthFlow.Pkce;
import dev.tributary.api.testing.OAuthFlow.Tokens;
import dev.tributary.api.testing.TestUser;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a reader of the database (a backup, a replica) finds of the OAuth secrets: no private key,
 * no token, code or refresh token it could present; and what the key outside the database, its
 * rotation and the fixed issuer do for the flows over HTTP.
 */
@ApiTest
class SecretsAtRestTest {

    @LocalServerPort int port;
    @LocalManagementPort int managementPort;
    @Autowired JdbcClient jdbc;
    @Autowired KeyEncryptionKey keyEncryptionKey;
    private OAuthFlow flow;
    private ApiClient api;

    @BeforeEach
    void client() {
        flow = new OAuthFlow(port);
        api = flow.api();
    }

    @Test
    void theSigningKeyRowsHoldNoPrivatePartInClear() {
        TestUser alice = api.newUser("sr");
        assertThat(api.get("/api/v1/me", flow.tokensFor(alice, "read").accessToken()).status()).isEqualTo(200);

        List<Map<String, Object>> rows = jdbc.sql("SELECT name, jwk, sealed FROM signing_keys WHERE name LIKE 'access-tokens%'")
                .query().listOfRows();

        assertThat(rows).isNotEmpty();
        for (Map<String, Object> row : rows) {
            String jwk = (String) row.get("jwk");
            assertThat(jwk).as("public part only").contains("\"n\"").doesNotContain("\"d\"").doesNotContain("\"p\"")
                    .doesNotContain("\"q\"").doesNotContain("\"dp\"");
            assertThat((String) row.get("sealed")).startsWith("v1.").doesNotContain("\"d\"");
        }
    }

    @Test
    void aKeyStoredInClearBeforeIsSealedAtStartAndStaysTheSameKey() throws Exception {
        String name = "legacy-" + UUID.randomUUID();
        RSAKey clear = new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate();
        jdbc.sql("INSERT INTO signing_keys (name, jwk, created_at, activates_at) VALUES (:name, :jwk, NOW(6), NOW(6))")
                .param("name", name).param("jwk", clear.toJSONString()).update();
        try {
            RSAKey loaded = new SigningKeys(jdbc, keyEncryptionKey, Clock.systemUTC()).loadOrCreate(name);

            assertThat(loaded).isEqualTo(clear);
            Map<String, Object> row = jdbc.sql("SELECT jwk, sealed FROM signing_keys WHERE name = :name")
                    .param("name", name).query().singleRow();
            assertThat((String) row.get("jwk")).doesNotContain("\"d\"");
            assertThat((String) row.get("sealed")).startsWith("v1.");
            assertThat(new SigningKeys(jdbc, keyEncryptionKey, Clock.systemUTC()).loadOrCreate(name)).isEqualTo(clear);
        } finally {
            jdbc.sql("DELETE FROM signing_keys WHERE name = :name").param("name", name).update();
        }
    }

    @Test
    void keysSealedWithAnotherKeyFailTheStartWithWhatToDo() {
        SigningKeys withAnotherKey = new SigningKeys(jdbc, KeyEncryptionKey.random(), Clock.systemUTC());

        assertThatThrownBy(() -> new SigningKeyRing(withAnotherKey, SigningKeys.ACCESS_TOKENS, Duration.ofMinutes(15),
                Clock.systemUTC()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot be decrypted")
                .hasMessageContaining("TRIBUTARY_SECRET_KEY")
                .hasMessageContaining("tributary.secrets.key-file");
    }

    @Test
    void aTokenSignedWithAnyOtherKeyIsRefused() throws Exception {
        TestUser alice = api.newUser("sr");
        String genuine = flow.tokensFor(alice, "read", "write").accessToken();
        SignedJWT real = SignedJWT.parse(genuine);
        // Everything as the server would write it, the key id included; only the key is another.
        RSAKey other = new RSAKeyGenerator(2048).keyID(real.getHeader().getKeyID()).generate();
        JWTClaimsSet claims = new JWTClaimsSet.Builder(real.getJWTClaimsSet()).jwtID(UUID.randomUUID().toString())
                .expirationTime(Date.from(Instant.now().plusSeconds(600))).build();
        SignedJWT forged = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(other.getKeyID())
                .type(new JOSEObjectType(AccessTokenClaims.TYPE)).build(), claims);
        forged.sign(new RSASSASigner(other));

        assertThat(api.get("/api/v1/me", genuine).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/me", forged.serialize()).status()).isEqualTo(401);
    }

    @Test
    void theGrantRowHoldsNoCodeAccessOrRefreshTokenThatCouldBePresented() {
        TestUser bob = api.newUser("sr");
        App app = flow.registerApp("client_secret_basic", "read");
        Pkce pkce = Pkce.create();
        String code = flow.code(flow.browser(), bob, app, "read", pkce);
        Tokens tokens = Tokens.of(flow.exchange(app, code, pkce.verifier(), app.redirectUri()));
        String grant = claims(tokens.accessToken()).path(AccessTokenClaims.GRANT_ID).asString();

        Map<String, String> row = grantRow(grant);
        assertThat(row.values()).noneMatch(value -> value.contains(code) || value.contains(tokens.accessToken())
                || value.contains(tokens.refreshToken()));
        assertThat(row.get("refresh_token_value")).isEqualTo(HashedTokensAuthorizationService.hash(tokens.refreshToken()));
        assertThat(row.get("authorization_code_value")).isEqualTo(HashedTokensAuthorizationService.hash(code));
        // The stored value, presented, is no token.
        assertThat(flow.refresh(app, row.get("refresh_token_value")).status()).isEqualTo(400);

        Tokens refreshed = Tokens.of(flow.refresh(app, tokens.refreshToken()));
        Map<String, String> after = grantRow(grant);
        assertThat(after.values()).noneMatch(value -> value.contains(refreshed.refreshToken())
                || value.contains(refreshed.accessToken()));
        assertThat(api.get("/api/v1/me", refreshed.accessToken()).status()).isEqualTo(200);
        assertThat(flow.refresh(app, tokens.refreshToken()).status()).as("rotated away").isEqualTo(400);

        assertThat(flow.revoke(app, refreshed.refreshToken()).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/me", refreshed.accessToken()).status()).isEqualTo(401);
        assertThat(flow.refresh(app, refreshed.refreshToken()).status()).isEqualTo(400);
    }

    @Test
    void rotationThroughTheConsoleAddsAKeyThatEveryNodeKnowsBeforeItSigns() {
        TestUser carol = api.newUser("sr");
        String before = flow.tokensFor(carol, "read").accessToken();
        ApiClient console = new ApiClient(managementPort);

        ApiResponse rotated = console.send("POST", "/actuator/signingkeys", null, Map.of(), "application/json");

        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        String added = rotated.json().path("kid").asString();
        assertThat(rotated.json().path("signing").asBoolean()).isFalse();
        assertThat(api.get("/oauth2/jwks", null).body()).contains(added).contains(kid(before));
        assertThat(console.get("/actuator/signingkeys", null).body()).contains(added).doesNotContain("\"d\"");
        assertThat(api.get("/api/v1/me", before).status()).isEqualTo(200);
        assertThat(kid(flow.tokensFor(carol, "read").accessToken())).as("not signing before it activates")
                .isEqualTo(kid(before));
    }

    @Test
    void aRotatedKeySignsOnceActiveAndTheOldOneVerifiesUntilItsTokensExpire() {
        String name = "rotation-" + UUID.randomUUID();
        MovableClock clock = new MovableClock(Instant.parse("2026-11-28T10:00:00Z"));
        Duration ttl = Duration.ofMinutes(15);
        SigningKeys keys = new SigningKeys(jdbc, keyEncryptionKey, clock);
        try {
            SigningKeyRing ring = new SigningKeyRing(keys, name, ttl, clock);
            RSAKey first = ring.signing();

            SigningKeys.Key second = ring.rotate();

            assertThat(ring.signing().getKeyID()).isEqualTo(first.getKeyID());
            assertThat(kids(ring.verifying())).containsExactlyInAnyOrder(first.getKeyID(), second.jwk().getKeyID());

            clock.advance(SigningKeys.ACTIVATION_DELAY.plus(SigningKeyRing.RELOAD_EVERY));
            assertThat(ring.signing().getKeyID()).isEqualTo(second.jwk().getKeyID());
            assertThat(kids(ring.verifying())).contains(first.getKeyID());

            clock.advance(ttl.plusSeconds(1));
            assertThat(kids(ring.verifying())).containsExactly(second.jwk().getKeyID());
            ring.rotate();
            assertThat(jdbc.sql("SELECT COUNT(*) FROM signing_keys WHERE name = :name").param("name", name)
                    .query(Integer.class).single()).as("the first key, replaced long ago, is deleted").isZero();
        } finally {
            jdbc.sql("DELETE FROM signing_keys WHERE name = :name OR name LIKE :prefix").param("name", name)
                    .param("prefix", name + "/%").update();
        }
    }

    @Test
    void theIssuerIsFixedAtStartNotTakenFromTheHostHeader() throws Exception {
        String hostile = raw("/.well-known/oauth-authorization-server", "evil.example:666");

        assertThat(hostile).startsWith("HTTP/1.1 200").doesNotContain("evil.example")
                .contains("\"issuer\":\"" + api.url("") + "\"");
        TestUser dan = api.newUser("sr");
        String token = flow.tokensFor(dan, "read").accessToken();
        assertThat(claims(token).path("iss").asString()).isEqualTo(api.url(""));
        assertThat(raw("/api/v1/me", "evil.example", "Authorization: Bearer " + token))
                .as("a token is good whatever Host the request names").startsWith("HTTP/1.1 200");
    }

    /** A GET with the Host header given (the JDK's client will not send a chosen one), whole response. */
    private String raw(String path, String host, String... headers) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
            for (String header : headers) {
                request.append(header).append("\r\n");
            }
            request.append("Connection: close\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private Map<String, String> grantRow(String grant) {
        Map<String, String> row = new java.util.LinkedHashMap<>();
        jdbc.sql("""
                SELECT authorization_code_value, access_token_value, refresh_token_value, attributes, state,
                       authorization_code_metadata, access_token_metadata, refresh_token_metadata
                FROM oauth2_authorization WHERE id = :id
                """).param("id", grant).query(rs -> {
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        byte[] bytes = rs.getBytes(i);
                        row.put(rs.getMetaData().getColumnLabel(i),
                                bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8));
                    }
                });
        assertThat(row).as("grant " + grant).isNotEmpty();
        return row;
    }

    private static List<String> kids(List<RSAKey> keys) {
        List<String> kids = new ArrayList<>();
        keys.forEach(key -> kids.add(key.getKeyID()));
        return kids;
    }

    private static String kid(String jwt) {
        try {
            return SignedJWT.parse(jwt).getHeader().getKeyID();
        } catch (java.text.ParseException e) {
            throw new AssertionError(e);
        }
    }

    private static JsonNode claims(String jwt) {
        return JsonMapper.shared().readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
    }

    /** A clock the test moves. */
    private static final class MovableClock extends Clock {
        private Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}

package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.oauth2.jwt.Jwt;

/** The signing key lives in the database: what one start (or node) signs, the next verifies. */
@ApiTest
class SigningKeysTest {

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;
    @Autowired KeyEncryptionKey keyEncryptionKey;

    @Test
    void aTokenIssuedEarlierVerifiesWithTheKeyReloadedFromTheDatabase() {
        OAuthFlow flow = new OAuthFlow(port);
        TestUser alice = flow.api().newUser("sk");
        String token = flow.tokensFor(alice, "read").accessToken();

        // What a restarted node does: read the keys from signing_keys, build the decoder anew.
        SigningKeys.Ring reloaded = new SigningKeys(jdbc, keyEncryptionKey, Clock.systemUTC())
                .ring(SigningKeys.ACCESS_TOKENS, Duration.ofMinutes(15));
        Jwt jwt = AccessTokenAuthenticator.decoder(new ImmutableJWKSet<>(new JWKSet(List.<JWK>copyOf(reloaded.verifying()))))
                .decode(token);

        assertThat(jwt.getSubject()).isEqualTo(alice.id());
        // A rotation by another test may have made a newer key sign since: the token's is one of the ring.
        assertThat(reloaded.verifying()).extracting(RSAKey::getKeyID).contains((String) jwt.getHeaders().get("kid"));
        assertThat(reloaded.verifying()).noneMatch(RSAKey::isPrivate);
        assertThat(reloaded.signing().isPrivate()).isTrue();
    }

    @Test
    void nodesStartingTogetherAllEndWithTheSameKey() throws Exception {
        String name = "test-" + UUID.randomUUID();
        int nodes = 4;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<RSAKey>> keys = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(nodes)) {
            for (int i = 0; i < nodes; i++) {
                keys.add(pool.submit(() -> {
                    start.await();
                    return new SigningKeys(jdbc, keyEncryptionKey, Clock.systemUTC()).loadOrCreate(name);
                }));
            }
            start.countDown();
            Set<String> distinct = new HashSet<>();
            for (Future<RSAKey> key : keys) {
                distinct.add(key.get().toJSONString());
            }
            assertThat(distinct).hasSize(1);
        } finally {
            jdbc.sql("DELETE FROM signing_keys WHERE name = :name").param("name", name).update();
        }
    }
}

package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.RSAKey;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import java.time.Clock;
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

    @Test
    void aTokenIssuedEarlierVerifiesWithTheKeyReloadedFromTheDatabase() {
        OAuthFlow flow = new OAuthFlow(port);
        TestUser alice = flow.api().newUser("sk");
        String token = flow.tokensFor(alice, "read").accessToken();

        // What a restarted node does: read the key from signing_keys, build the decoder anew.
        RSAKey reloaded = new SigningKeys(jdbc, Clock.systemUTC()).loadOrCreate(SigningKeys.ACCESS_TOKENS);
        Jwt jwt = AccessTokenAuthenticator.decoder(reloaded).decode(token);

        assertThat(jwt.getSubject()).isEqualTo(alice.id());
        assertThat(jwt.getHeaders()).containsEntry("kid", reloaded.getKeyID());
        assertThat(reloaded.isPrivate()).isTrue();
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
                    return new SigningKeys(jdbc, Clock.systemUTC()).loadOrCreate(name);
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

package dev.tributary.api.oauth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.sql.Timestamp;
import java.text.ParseException;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The RSA key that signs access tokens, kept in {@code signing_keys} so tokens outlive a restart
 * and every node signs and verifies alike. The first node to start creates it; nodes racing to
 * do so each insert-if-absent and then all read back the one row that won.
 */
final class SigningKeys {

    /** The row of the key that signs access tokens now. */
    static final String ACCESS_TOKENS = "access-tokens";

    private final JdbcClient jdbc;
    private final Clock clock;

    SigningKeys(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** The key stored under {@code name}, created first if there is none. */
    RSAKey loadOrCreate(String name) {
        return find(name).orElseGet(() -> {
            jdbc.sql("INSERT IGNORE INTO signing_keys (name, jwk, created_at) VALUES (:name, :jwk, :created)")
                    .param("name", name).param("jwk", generate().toJSONString())
                    .param("created", Timestamp.from(clock.instant())).update();
            return find(name).orElseThrow(() -> new IllegalStateException("signing key " + name + " vanished"));
        });
    }

    private Optional<RSAKey> find(String name) {
        return jdbc.sql("SELECT jwk FROM signing_keys WHERE name = :name").param("name", name)
                .query(String.class).optional().map(SigningKeys::parse);
    }

    private static RSAKey parse(String jwk) {
        try {
            return RSAKey.parse(jwk);
        } catch (ParseException e) {
            throw new IllegalStateException("signing_keys holds a key that is not an RSA JWK", e);
        }
    }

    private static RSAKey generate() {
        try {
            return new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).keyUse(KeyUse.SIGNATURE)
                    .algorithm(JWSAlgorithm.RS256).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("every JDK can generate RSA keys", e);
        }
    }
}

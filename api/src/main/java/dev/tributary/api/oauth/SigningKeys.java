package dev.tributary.api.oauth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.sql.Timestamp;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The RSA keys that sign access tokens, kept in {@code signing_keys} so tokens outlive a restart
 * and every node signs and verifies alike. Each row holds the public JWK in clear and the private
 * one sealed with the {@link KeyEncryptionKey}, which is not in the database. The first node to
 * start creates the first key; nodes racing to do so each insert-if-absent and then all read back
 * the one row that won. Rows written before sealing existed are sealed at start-up.
 * <p>
 * A ring is every row named {@code name} or {@code name/…}. {@link #rotate} adds a key that
 * becomes the signing one {@link #ACTIVATION_DELAY} later, by which time every node has read its
 * public part ({@link SigningKeyRing} re-reads every {@link SigningKeyRing#RELOAD_EVERY}); a key
 * replaced by a newer one still verifies for one access-token lifetime, then it is deleted.
 */
final class SigningKeys {

    private static final Logger log = LoggerFactory.getLogger(SigningKeys.class);

    /** The ring of the keys that sign access tokens. */
    static final String ACCESS_TOKENS = "access-tokens";
    /** From a rotation to the new key signing: longer than any node takes to learn of it. */
    static final Duration ACTIVATION_DELAY = Duration.ofMinutes(2);
    /** {@code signing_keys.name}'s width: a longer name would be cut, and its sealed key not open. */
    private static final int MAX_NAME_LENGTH = 200;

    /** One key of a ring, its private part opened. */
    record Key(String name, RSAKey jwk, Instant createdAt, Instant activatesAt) {
    }

    /**
     * A ring as of one instant: the key that signs, and every key a token may carry (the signing
     * one, ones about to sign, and replaced ones whose tokens may still be alive), public parts.
     */
    record Ring(RSAKey signing, List<RSAKey> verifying, List<Key> keys) {
    }

    private record Row(String name, String jwk, @Nullable String sealed, Instant createdAt, Instant activatesAt) {
    }

    private final JdbcClient jdbc;
    private final KeyEncryptionKey encryption;
    private final Clock clock;

    SigningKeys(JdbcClient jdbc, KeyEncryptionKey encryption, Clock clock) {
        this.jdbc = jdbc;
        this.encryption = encryption;
        this.clock = clock;
    }

    /** The key that signs now in ring {@code name}, which is created first if it is empty. */
    RSAKey loadOrCreate(String name) {
        return ring(name, Duration.ZERO).signing();
    }

    /**
     * Ring {@code name} as of now, created if empty, its clear rows sealed. Keys replaced more than
     * {@code tokenLifetime} ago are left out.
     * @throws IllegalStateException when a row does not open with the configured key
     */
    Ring ring(String name, Duration tokenLifetime) {
        List<Row> rows = rows(name);
        if (rows.isEmpty()) {
            insert(name, clock.instant());
            rows = rows(name);
        }
        List<Key> keys = new ArrayList<>();
        for (Row row : rows) {
            keys.add(open(row));
        }
        keys.sort(Comparator.comparing(Key::activatesAt).thenComparing(Key::createdAt).thenComparing(Key::name));
        Instant now = clock.instant();
        int signing = 0;
        for (int i = 0; i < keys.size(); i++) {
            if (!keys.get(i).activatesAt().isAfter(now)) {
                signing = i;
            }
        }
        List<RSAKey> verifying = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            boolean replacedLongAgo = i < signing
                    && keys.get(i + 1).activatesAt().plus(tokenLifetime).isBefore(now);
            if (!replacedLongAgo) {
                verifying.add(keys.get(i).jwk().toPublicJWK());
            }
        }
        return new Ring(keys.get(signing).jwk(), List.copyOf(verifying), List.copyOf(keys));
    }

    /**
     * Adds a key to ring {@code name} that signs from {@link #ACTIVATION_DELAY} on, and deletes the
     * keys that no live token can carry any more.
     */
    Key rotate(String name, Duration tokenLifetime) {
        Ring before = ring(name, tokenLifetime);
        Instant now = clock.instant();
        for (Key key : before.keys()) {
            boolean verifies = before.verifying().stream().anyMatch(v -> v.getKeyID().equals(key.jwk().getKeyID()));
            if (!verifies) {
                jdbc.sql("DELETE FROM signing_keys WHERE name = :name").param("name", key.name()).update();
            }
        }
        Key added = insert(name + "/" + UUID.randomUUID(), now.plus(ACTIVATION_DELAY));
        log.info("Signing key {} added to {}: it signs access tokens from {}; the key signing now, {}, verifies"
                + " until the tokens it signed expire", added.jwk().getKeyID(), name, added.activatesAt(),
                before.signing().getKeyID());
        return added;
    }

    private Key insert(String rowName, Instant activatesAt) {
        if (rowName.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("a signing key's row name is at most " + MAX_NAME_LENGTH + " characters");
        }
        RSAKey jwk = generate();
        Instant created = clock.instant().truncatedTo(ChronoUnit.MICROS);
        Instant activates = activatesAt.truncatedTo(ChronoUnit.MICROS);
        jdbc.sql("""
                INSERT IGNORE INTO signing_keys (name, jwk, sealed, created_at, activates_at)
                VALUES (:name, :jwk, :sealed, :created, :activates)
                """).param("name", rowName).param("jwk", jwk.toPublicJWK().toJSONString())
                .param("sealed", encryption.seal(jwk.toJSONString(), context(rowName)))
                .param("created", Timestamp.from(created)).param("activates", Timestamp.from(activates)).update();
        return new Key(rowName, jwk, created, activates);
    }

    private List<Row> rows(String name) {
        return jdbc.sql("""
                SELECT name, jwk, sealed, created_at, activates_at FROM signing_keys
                WHERE name = :name OR name LIKE :prefix
                """).param("name", name).param("prefix", name.replace("\\", "\\\\").replace("%", "\\%")
                        .replace("_", "\\_") + "/%")
                .query((rs, n) -> new Row(rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getTimestamp(4).toInstant(), rs.getTimestamp(5).toInstant()))
                .list();
    }

    /** The row's key, private part included; a row from before sealing is sealed on the way. */
    private Key open(Row row) {
        if (row.sealed() == null) {
            RSAKey clear = parse(row.jwk());
            int sealed = jdbc.sql("UPDATE signing_keys SET jwk = :jwk, sealed = :sealed WHERE name = :name AND sealed IS NULL")
                    .param("jwk", clear.toPublicJWK().toJSONString())
                    .param("sealed", encryption.seal(clear.toJSONString(), context(row.name())))
                    .param("name", row.name()).update();
            if (sealed == 1) {
                log.info("Signing key {} ({}) is now kept encrypted with {}", clear.getKeyID(), row.name(),
                        encryption.source());
            }
            return new Key(row.name(), clear, row.createdAt(), row.activatesAt());
        }
        String jwk;
        try {
            jwk = encryption.open(row.sealed(), context(row.name()));
        } catch (KeyEncryptionKey.WrongKeyException e) {
            throw new IllegalStateException("The signing key '" + row.name() + "' in signing_keys cannot be decrypted"
                    + " with " + encryption.source() + ": it was encrypted with another key. Start with the key it was"
                    + " encrypted with (" + KeyEncryptionKey.ENVIRONMENT_VARIABLE + " or tributary.secrets.key-file,"
                    + " from where the database's first start kept it). Only if that key is lost: delete the rows of"
                    + " signing_keys; a new signing key is made and every access token issued so far is refused"
                    + " (docs/security.md)", e);
        }
        RSAKey key = parse(jwk);
        if (!key.isPrivate() || !key.toPublicJWK().equals(parse(row.jwk()))) {
            throw new IllegalStateException("signing_keys row '" + row.name() + "' holds a sealed key that does not match"
                    + " its public key");
        }
        return new Key(row.name(), key, row.createdAt(), row.activatesAt());
    }

    /** What a sealed key is bound to: its row, so it opens nowhere else. */
    private static String context(String rowName) {
        return "signing_keys/" + rowName;
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

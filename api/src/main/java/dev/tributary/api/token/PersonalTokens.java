package dev.tributary.api.token;

import dev.tributary.api.security.Revocations;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Credential;
import dev.tributary.api.web.Scope;
import dev.tributary.pubsub.NewIds;
import dev.tributary.pubsub.PersonQuotas;
import dev.tributary.pubsub.Quota;
import dev.tributary.pubsub.QuotaExceededException;
import dev.tributary.pubsub.Writes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Personal access tokens in {@code personal_tokens}: only a SHA-256 of each secret is stored,
 * so a database leak yields no usable token. Secrets carry the {@code trb_} prefix so they are
 * recognised (by the API and by secret scanners) without a look-up.
 */
@Repository
public class PersonalTokens {

    /** The prefix of every personal access token. */
    public static final String PREFIX = "trb_";
    /**
     * The Redis channel a revocation is announced on ({@code token:} and the revoked token's hash,
     * hex, among other credentials' keys): every node forgets what it cached for that token, closes
     * the streams it opened, and credentials derived from tokens re-check theirs.
     */
    public static final String REVOKED_CHANNEL = Revocations.CHANNEL;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final JdbcClient jdbc;
    private final NewIds ids;
    private final Clock clock;
    private final Writes tx;
    private final PersonQuotas quotas;

    PersonalTokens(JdbcClient jdbc, NewIds ids, Writes tx, PersonQuotas quotas) {
        this.jdbc = jdbc;
        this.ids = ids;
        this.tx = tx;
        this.quotas = quotas;
        this.clock = Clock.systemUTC();
    }

    /** Creates a token and returns it with its secret. */
    public IssuedToken create(long userId, String name, Set<Scope> scopes) {
        return create(userId, name, scopes, null);
    }

    /**
     * Creates a token and returns it with its secret; with {@code feverUsername} the token also
     * signs in Fever apps, which send md5 of "username:token" as their key (only its SHA-256 is stored).
     *
     * @throws QuotaExceededException if the person holds {@code tributary.limits.tokens} tokens already
     */
    public IssuedToken create(long userId, String name, Set<Scope> scopes, @Nullable String feverUsername) {
        String secret = newSecret();
        byte[] feverKeyHash = feverUsername == null ? null : hash(feverKey(feverUsername, secret));
        PersonalToken token = new PersonalToken(ids.next(), userId, name, scopes,
                clock.instant().truncatedTo(ChronoUnit.MICROS), feverKeyHash != null);
        tx.run("create a token of " + userId, () -> {
            quotas.claim(userId, Quota.TOKENS, () -> count(userId));
            jdbc.sql("""
                INSERT INTO personal_tokens (user_id, id, name, token_hash, scopes, created_at, fever_key_hash)
                VALUES (:user, :id, :name, :hash, :scopes, :created, :fever)
                """)
                .param("user", userId).param("id", token.id()).param("name", name).param("hash", hash(secret))
                .param("fever", feverKeyHash)
                .param("scopes", encode(scopes)).param("created", Timestamp.from(token.createdAt()))
                .update();
        });
        return new IssuedToken(token, secret);
    }

    /** A person's tokens, newest first. */
    public List<PersonalToken> of(long userId) {
        return jdbc.sql("""
                SELECT id, user_id, name, scopes, created_at, fever_key_hash IS NOT NULL AS fever FROM personal_tokens
                WHERE user_id = :user ORDER BY id DESC
                """).param("user", userId).query(PersonalTokens::token).list();
    }

    public int count(long userId) {
        return jdbc.sql("SELECT COUNT(*) FROM personal_tokens WHERE user_id = :user")
                .param("user", userId).query(Integer.class).single();
    }

    /** The hash of the revoked token's secret (for evicting caches), if the person had a token with this id. */
    public Optional<byte[]> revoke(long userId, long tokenId) {
        Optional<byte[]> hash = jdbc.sql("SELECT token_hash FROM personal_tokens WHERE user_id = :user AND id = :id")
                .param("user", userId).param("id", tokenId).query((rs, n) -> rs.getBytes(1)).optional();
        hash.ifPresent(h -> jdbc.sql("DELETE FROM personal_tokens WHERE user_id = :user AND id = :id")
                .param("user", userId).param("id", tokenId).update());
        return hash;
    }

    /** Who a secret acts for, by its hash. */
    Optional<Caller> callerOf(byte[] secretHash) {
        Credential credential = new Credential(Credential.Kind.PERSONAL_TOKEN, Set.of(Revocations.tokenKey(hex(secretHash))));
        return jdbc.sql("SELECT user_id, scopes FROM personal_tokens WHERE token_hash = :hash")
                .param("hash", secretHash)
                .query((rs, n) -> new Caller(rs.getLong(1), decode(rs.getString(2)), credential))
                .optional();
    }

    /** The token with this secret; empty if no token has it. */
    public Optional<PersonalToken> findBySecret(String secret) {
        return jdbc.sql("SELECT id, user_id, name, scopes, created_at, fever_key_hash IS NOT NULL AS fever FROM personal_tokens WHERE token_hash = :hash")
                .param("hash", hash(secret)).query(PersonalTokens::token).optional();
    }

    /** Who a Fever api_key (md5 hex of "username:token", as the apps send it) acts for; empty if no token has it. */
    public Optional<Caller> callerOfFeverKey(String apiKey) {
        return jdbc.sql("SELECT user_id, scopes FROM personal_tokens WHERE fever_key_hash = :hash")
                .param("hash", hash(apiKey.strip().toLowerCase(java.util.Locale.ROOT)))
                .query((rs, n) -> new Caller(rs.getLong(1), decode(rs.getString(2))))
                .optional();
    }

    /** The api_key a Fever app computes: md5 hex of "username:password", the password being the token. */
    static String feverKey(String username, String secret) {
        try {
            return java.util.HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
                    .digest((username + ":" + secret).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    }

    static byte[] hash(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static PersonalToken token(ResultSet rs, int row) throws SQLException {
        return new PersonalToken(rs.getLong("id"), rs.getLong("user_id"), rs.getString("name"),
                decode(rs.getString("scopes")), rs.getTimestamp("created_at").toInstant(), rs.getBoolean("fever"));
    }

    private static String encode(Set<Scope> scopes) {
        return scopes.stream().sorted().map(Scope::wireName).collect(Collectors.joining(" "));
    }

    private static Set<Scope> decode(String scopes) {
        Set<Scope> result = EnumSet.noneOf(Scope.class);
        Arrays.stream(scopes.split(" ")).map(Scope::parse).flatMap(Optional::stream).forEach(result::add);
        return result;
    }

    /** For callers that hold a hash and want to log or compare it without exposing it. */
    static String hex(byte[] hash) {
        return java.util.HexFormat.of().formatHex(hash);
    }
}

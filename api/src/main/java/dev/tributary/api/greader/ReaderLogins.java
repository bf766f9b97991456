package dev.tributary.api.greader;

import dev.tributary.api.account.Accounts;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Scope;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The Auth values Google Reader apps carry ({@code Authorization: GoogleLogin auth=…}), in
 * {@code reader_logins}: each stands for the personal token or the password it was issued for,
 * and stops working the moment that token is revoked or that password changed. Only a hash of
 * each value is stored; a person keeps at most {@link #MAX_PER_USER}, the oldest going first
 * (apps sign in again on every launch). A value issued for a password also ends after
 * {@link #PASSWORD_IDLE_LIMIT} unused: unlike a personal token, nothing lists it for the person
 * to revoke, so a copy left on a lost device must not stay good forever.
 */
@Repository
public class ReaderLogins {

    /** The prefix of every Auth value, so it is recognised without a look-up. */
    static final String PREFIX = "trg_";
    static final int MAX_PER_USER = 50;
    /** How long a value issued for a password stays good unused. */
    static final Duration PASSWORD_IDLE_LIMIT = Duration.ofDays(30);
    /** Use is recorded at most this often per value: not a write on every request. */
    static final Duration LAST_USED_GRANULARITY = Duration.ofHours(1);

    private static final SecureRandom RANDOM = new SecureRandom();

    private record Row(long userId, @Nullable Long tokenId, byte @Nullable [] passwordStamp, @Nullable String scopes,
            Instant lastUsedAt) {
    }

    private final JdbcClient jdbc;
    private final Accounts accounts;
    private final Clock clock;

    ReaderLogins(JdbcClient jdbc, Accounts accounts, ObjectProvider<Clock> clock) {
        this.jdbc = jdbc;
        this.accounts = accounts;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /** A new Auth value standing for a personal token. */
    String forToken(long userId, long tokenId) {
        return insert(userId, tokenId, null);
    }

    /** A new Auth value standing for the account's current password. */
    String forPassword(long userId, String passwordHash) {
        return insert(userId, null, sha256(passwordHash));
    }

    /**
     * Who an Auth value acts for; empty if unknown, if its token or password is no longer valid, or
     * if it was issued for a password and went unused for {@link #PASSWORD_IDLE_LIMIT}.
     */
    Optional<Caller> callerOf(String auth) {
        byte[] hash = sha256(auth);
        Optional<Row> row = jdbc.sql("""
                SELECT l.user_id, l.token_id, l.password_stamp, t.scopes, l.last_used_at FROM reader_logins l
                LEFT JOIN personal_tokens t ON t.user_id = l.user_id AND t.id = l.token_id
                WHERE l.auth_hash = :hash
                """).param("hash", hash)
                .query((rs, n) -> new Row(rs.getLong(1), (Long) rs.getObject(2), rs.getBytes(3), rs.getString(4),
                        rs.getTimestamp(5).toInstant()))
                .optional();
        if (row.isEmpty()) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (row.get().tokenId() == null && row.get().lastUsedAt().plus(PASSWORD_IDLE_LIMIT).isBefore(now)) {
            jdbc.sql("DELETE FROM reader_logins WHERE auth_hash = :hash").param("hash", hash).update();
            return Optional.empty();
        }
        Optional<Caller> caller = caller(row.get());
        if (caller.isPresent() && row.get().lastUsedAt().plus(LAST_USED_GRANULARITY).isBefore(now)) {
            jdbc.sql("UPDATE reader_logins SET last_used_at = :now WHERE auth_hash = :hash")
                    .param("now", Timestamp.from(now.truncatedTo(ChronoUnit.MICROS))).param("hash", hash).update();
        }
        return caller;
    }

    /**
     * Ends every Auth value of the person, those issued for a password included; the caller
     * announces a revocation so that no node keeps a cached answer for one.
     */
    public int endAll(long userId) {
        return jdbc.sql("DELETE FROM reader_logins WHERE user_id = :user").param("user", userId).update();
    }

    private Optional<Caller> caller(Row row) {
        if (row.tokenId() != null) {
            return row.scopes() == null ? Optional.empty() : Optional.of(new Caller(row.userId(), scopes(row.scopes())));
        }
        boolean samePassword = row.passwordStamp() != null && accounts.find(row.userId())
                .map(account -> MessageDigest.isEqual(sha256(account.body().passwordHash()), row.passwordStamp()))
                .orElse(false);
        return samePassword ? Optional.of(new Caller(row.userId(), EnumSet.of(Scope.READ, Scope.WRITE))) : Optional.empty();
    }

    private String insert(long userId, @Nullable Long tokenId, byte @Nullable [] passwordStamp) {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String auth = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        jdbc.sql("""
                INSERT INTO reader_logins (auth_hash, user_id, token_id, password_stamp, created_at, last_used_at)
                VALUES (:hash, :user, :token, :stamp, :created, :created)
                """).param("hash", sha256(auth)).param("user", userId).param("token", tokenId)
                .param("stamp", passwordStamp)
                .param("created", Timestamp.from(clock.instant().truncatedTo(ChronoUnit.MICROS)))
                .update();
        // Keep the newest few: an app signs in on every launch and never signs out.
        jdbc.sql("""
                DELETE FROM reader_logins WHERE user_id = :user AND created_at < (
                    SELECT c FROM (SELECT created_at AS c FROM reader_logins WHERE user_id = :user
                                   ORDER BY created_at DESC LIMIT 1 OFFSET :keep) oldest)
                """).param("user", userId).param("keep", MAX_PER_USER - 1).update();
        return auth;
    }

    private static Set<Scope> scopes(String encoded) {
        Set<Scope> result = EnumSet.noneOf(Scope.class);
        Arrays.stream(encoded.split(" ")).map(Scope::parse).flatMap(Optional::stream).forEach(result::add);
        return result;
    }

    static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}

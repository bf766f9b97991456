package dev.tributary.api.oauth;

import dev.tributary.api.retention.RetentionJob;
import dev.tributary.api.retention.RetentionSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Refresh tokens rotated away ({@code retired_refresh_tokens}), by a SHA-256 of their value, with
 * the grant they belonged to, until they would have expired: a token presented after it was
 * rotated is a copy someone kept. Retiring a token twice fails, which is what lets exactly one of
 * two refreshes racing with the same token through, on any node. The rows of expired tokens are
 * removed by the retention job {@code oauth-retired-refresh-tokens}, on the grants' schedule.
 */
@Repository
class RetiredRefreshTokens implements RetentionJob {

    /** The grant a retired token belonged to. {@code clientId} is the registered client's id. */
    record Retired(String grantId, String clientId, String subject) {
    }

    private final JdbcClient jdbc;
    private final RetentionSettings settings;
    private final Clock clock;

    RetiredRefreshTokens(JdbcClient jdbc, RetentionSettings settings, ObjectProvider<Clock> clock) {
        this.jdbc = jdbc;
        this.settings = settings;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * Remembers {@code token} as spent until {@code expiresAt}.
     * @throws DuplicateKeyException when it was retired already (by a refresh that committed
     *         while this one ran: an insert of the same key waits for the other's transaction)
     */
    void retire(String token, Retired grant, Instant expiresAt) {
        jdbc.sql("""
                INSERT INTO retired_refresh_tokens (token_hash, grant_id, client_id, subject, expires_at)
                VALUES (:hash, :grant, :client, :subject, :expires)
                """).param("hash", hash(token)).param("grant", grant.grantId()).param("client", grant.clientId())
                .param("subject", grant.subject())
                .param("expires", Timestamp.from(expiresAt.truncatedTo(ChronoUnit.MICROS))).update();
    }

    /** The grant {@code token} belonged to, if it was rotated away and has not expired. */
    Optional<Retired> find(String token) {
        return jdbc.sql("""
                SELECT grant_id, client_id, subject FROM retired_refresh_tokens
                WHERE token_hash = :hash AND expires_at > :now
                """).param("hash", hash(token)).param("now", Timestamp.from(clock.instant()))
                .query((rs, n) -> new Retired(rs.getString(1), rs.getString(2), rs.getString(3))).optional();
    }

    @Override
    public String name() {
        return "oauth-retired-refresh-tokens";
    }

    @Override
    public Duration every() {
        return settings.authorizations().every();
    }

    @Override
    public long sweep(LongConsumer removed) {
        Timestamp now = Timestamp.from(clock.instant());
        long total = 0;
        int batch;
        do {
            batch = jdbc.sql("DELETE FROM retired_refresh_tokens WHERE expires_at < :now LIMIT :batch")
                    .param("now", now).param("batch", settings.batchSize()).update();
            removed.accept(batch);
            total += batch;
        } while (batch == settings.batchSize());
        return total;
    }

    private static byte[] hash(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}

package dev.tributary.api.oauth;

import dev.tributary.api.retention.RetentionJob;
import dev.tributary.api.retention.RetentionSettings;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.function.LongConsumer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Removes OAuth grants ({@code oauth2_authorization}) that can no longer be used: every token of
 * theirs (code, access, refresh) expired more than the grace ago. Revoked tokens stay until they
 * expire as well, so whatever rebuilds the deny-list from these rows still finds every revoked
 * token that would otherwise pass its signature check.
 */
@Component
class ExpiredAuthorizations implements RetentionJob {

    private static final String DELETE = """
            DELETE FROM oauth2_authorization
            WHERE created_at < :cutoff
              AND (authorization_code_expires_at IS NULL OR authorization_code_expires_at < :cutoff)
              AND (access_token_expires_at IS NULL OR access_token_expires_at < :cutoff)
              AND (refresh_token_expires_at IS NULL OR refresh_token_expires_at < :cutoff)
              AND (oidc_id_token_expires_at IS NULL OR oidc_id_token_expires_at < :cutoff)
              AND (user_code_expires_at IS NULL OR user_code_expires_at < :cutoff)
              AND (device_code_expires_at IS NULL OR device_code_expires_at < :cutoff)
            LIMIT :batch
            """;

    private final JdbcClient jdbc;
    private final RetentionSettings settings;
    private final Clock clock;

    ExpiredAuthorizations(JdbcClient jdbc, RetentionSettings settings, ObjectProvider<Clock> clock) {
        this.jdbc = jdbc;
        this.settings = settings;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    @Override
    public String name() {
        return "oauth-authorizations";
    }

    @Override
    public Duration every() {
        return settings.authorizations().every();
    }

    @Override
    public long sweep(LongConsumer removed) {
        Timestamp cutoff = Timestamp.from(clock.instant().minus(settings.authorizations().grace()));
        long total = 0;
        int batch;
        do {
            batch = jdbc.sql(DELETE).param("cutoff", cutoff).param("batch", settings.batchSize()).update();
            removed.accept(batch);
            total += batch;
        } while (batch == settings.batchSize());
        return total;
    }
}

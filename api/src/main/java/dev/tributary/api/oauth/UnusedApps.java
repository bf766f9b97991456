package dev.tributary.api.oauth;

import dev.tributary.api.retention.RetentionJob;
import dev.tributary.api.retention.RetentionSettings;
import dev.tributary.pubsub.Writes;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.LongConsumer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Removes registered apps nobody uses, with their consents. Anyone may register an app, so
 * unused ones would pile up forever. Unused: registered more than {@code unused-after} ago, and
 * no grant of it was created, had a token issued or still holds an unexpired token within that
 * time. Grants that expired are removed by {@link ExpiredAuthorizations}; one still left here
 * counts as use only through its dates.
 */
@Component
class UnusedApps implements RetentionJob {

    private static final String UNUSED = """
            SELECT c.id FROM oauth2_registered_client c
            WHERE c.client_id_issued_at < :cutoff
              AND NOT EXISTS (SELECT 1 FROM oauth2_authorization a WHERE a.registered_client_id = c.id
                  AND (a.created_at >= :cutoff
                       OR a.authorization_code_issued_at >= :cutoff
                       OR a.access_token_issued_at >= :cutoff
                       OR a.refresh_token_issued_at >= :cutoff
                       OR a.access_token_expires_at >= :now
                       OR a.refresh_token_expires_at >= :now))
              AND NOT EXISTS (SELECT 1 FROM oauth2_authorization_consent g WHERE g.registered_client_id = c.id
                  AND g.authorised_at >= :cutoff)
            ORDER BY c.id
            LIMIT :batch""";

    private final JdbcClient jdbc;
    private final Writes tx;
    private final RetentionSettings settings;
    private final Clock clock;

    UnusedApps(JdbcClient jdbc, Writes tx, RetentionSettings settings, ObjectProvider<Clock> clock) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.settings = settings;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    @Override
    public String name() {
        return "oauth-apps";
    }

    @Override
    public Duration every() {
        return settings.apps().every();
    }

    @Override
    public long sweep(LongConsumer removed) {
        Instant now = clock.instant();
        Timestamp cutoff = Timestamp.from(now.minus(settings.apps().unusedAfter()));
        long total = 0;
        int batch;
        do {
            batch = removeSome(cutoff, Timestamp.from(now));
            removed.accept(batch);
            total += batch;
        } while (batch == settings.batchSize());
        return total;
    }

    /**
     * One batch of unused apps with their leftover grants and consents, in one transaction; the
     * apps' rows are locked so that two nodes sweeping at once do not count the same app twice.
     */
    private int removeSome(Timestamp cutoff, Timestamp now) {
        return tx.write("remove unused apps", () -> {
            List<String> ids = jdbc.sql(UNUSED + " FOR UPDATE").param("cutoff", cutoff).param("now", now)
                    .param("batch", settings.batchSize()).query(String.class).list();
            if (ids.isEmpty()) {
                return 0;
            }
            jdbc.sql("DELETE FROM oauth2_authorization WHERE registered_client_id IN (:ids)").param("ids", ids).update();
            jdbc.sql("DELETE FROM oauth2_authorization_consent WHERE registered_client_id IN (:ids)").param("ids", ids).update();
            return jdbc.sql("DELETE FROM oauth2_registered_client WHERE id IN (:ids)").param("ids", ids).update();
        });
    }
}

package dev.tributary.storage.testing;

import java.time.Duration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Waits for deferred indexes (search terms) to catch up with what was written: a queued entity
 * leaves {@code index_pending} in the same transaction that writes its index rows, so an empty
 * queue means every committed write is indexed.
 */
public final class DeferredIndexing {

    private DeferredIndexing() {
    }

    /** Returns once nothing is queued for any deferred index. */
    public static void awaitDrained(JdbcClient jdbc) {
        Await.until("deferred indexes drained", Duration.ofSeconds(60),
                () -> jdbc.sql("SELECT COUNT(*) FROM index_pending").query(Long.class).single() == 0);
    }
}

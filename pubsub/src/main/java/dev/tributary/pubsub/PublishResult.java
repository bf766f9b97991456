package dev.tributary.pubsub;

import java.util.List;

/**
 * What a publish did: items created (and queued for fan-out), items updated in place (no new
 * inbox entries), and how many entries were already stored unchanged (or tombstoned).
 */
public record PublishResult(List<Long> created, List<Long> updated, int unchanged) {

    public PublishResult {
        created = List.copyOf(created);
        updated = List.copyOf(updated);
    }
}

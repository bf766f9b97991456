package dev.tributary.pubsub;

import java.util.List;

/**
 * What a publish did: items created (and queued for fan-out), items updated in place (no new
 * inbox entries), and how many entries were already stored unchanged (or tombstoned); and the
 * ids of every entry the call carried, in any of those states ({@code carried}), which a feed's
 * ingest hands to {@link Publisher#documentCarried}.
 */
public record PublishResult(List<Long> created, List<Long> updated, int unchanged, List<Long> carried) {

    public PublishResult {
        created = List.copyOf(created);
        updated = List.copyOf(updated);
        carried = List.copyOf(carried);
    }
}

package dev.tributary.api.source;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A source as API.md defines it, plus {@code group_id} for a group's source (so a client can open
 * or follow the group from it). Feeds carry their crawl health; people's and groups' sources
 * are never crawled, so they are always {@code ok} with no crawl times.
 */
public record SourceView(
        String id,
        String kind,
        @Nullable String title,
        @Nullable String url,
        @Nullable String siteUrl,
        String status,
        @Nullable Instant lastFetchedAt,
        @Nullable Instant nextFetchAt,
        @Nullable String lastError,
        @Nullable String groupId) {
}

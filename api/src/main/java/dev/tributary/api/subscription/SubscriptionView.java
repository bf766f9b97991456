package dev.tributary.api.subscription;

import dev.tributary.api.folder.FolderView;
import dev.tributary.api.source.SourceView;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A subscription as API.md defines it; {@code media} is null when every media type is taken;
 * {@code title} what the caller calls it (null: the source's own title); {@code folders} the
 * caller's folders it is filed in; {@code full_content} whether the caller asked for the full
 * article of every new item.
 */
record SubscriptionView(String id, SourceView source, @Nullable List<String> media, Instant createdAt,
        @Schema(description = "What the caller calls this subscription; null when they use the source's own title.")
        @Nullable String title,
        @Schema(description = "The caller's folders this subscription is filed in, by name.")
        List<FolderView> folders,
        @Schema(description = "Always fetch the full article: each new item's page is read once after it arrives"
                + " (GET /api/v1/items/{id}/content then answers at once), for feeds that ship only a teaser.")
        boolean fullContent) {
}

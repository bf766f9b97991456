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
 * caller's folders it is filed in.
 */
record SubscriptionView(String id, SourceView source, @Nullable List<String> media, Instant createdAt,
        @Schema(description = "What the caller calls this subscription; null when they use the source's own title.")
        @Nullable String title,
        @Schema(description = "The caller's folders this subscription is filed in, by name.")
        List<FolderView> folders) {
}

package dev.tributary.api.subscription;

import dev.tributary.api.source.SourceView;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A subscription as API.md defines it; {@code media} is null when every media type is taken. */
record SubscriptionView(String id, SourceView source, @Nullable List<String> media, Instant createdAt) {
}

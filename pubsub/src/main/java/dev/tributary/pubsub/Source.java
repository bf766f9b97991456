package dev.tributary.pubsub;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A source of items (the body of a {@code source} entity). Feed sources are keyed by url;
 * user and group sources by their owner's id. Crawl state lives with the crawler.
 */
public record Source(
        SourceKind kind,
        @Nullable String url,
        @Nullable String title,
        @Nullable String siteUrl,
        @Nullable Long ownerId,
        Instant createdAt) {

    public Source {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(createdAt, "createdAt");
        if (kind == SourceKind.FEED && url == null) {
            throw new IllegalArgumentException("a feed source needs a url");
        }
        if (kind != SourceKind.FEED && ownerId == null) {
            throw new IllegalArgumentException("a " + kind.wireName() + " source needs an owner");
        }
    }

    Source withDetails(@Nullable String newTitle, @Nullable String newSiteUrl) {
        return new Source(kind, url, newTitle, newSiteUrl, ownerId, createdAt);
    }

    Source withUrl(String newUrl) {
        return new Source(kind, newUrl, title, siteUrl, ownerId, createdAt);
    }
}

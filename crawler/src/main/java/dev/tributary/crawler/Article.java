package dev.tributary.crawler;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An entry's full article as kept for every reader of the item: sanitised HTML (the same
 * allow-list as the feed's full content, video players kept; urls absolute against the page's
 * final url), the page's title and byline, and where and when it was fetched.
 *
 * @param byline who wrote the article, as the page says (plain text), null if it does not
 * @param url the page's url after redirects
 * @param truncated whether the article was cut to the stored size
 */
public record Article(long itemId, String html, @Nullable String title, @Nullable String byline, String url, Instant fetchedAt,
        boolean truncated) {

    public Article {
        Objects.requireNonNull(html, "html");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(fetchedAt, "fetchedAt");
    }
}

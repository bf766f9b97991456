package dev.tributary.crawler.normalize;

import dev.tributary.crawler.parse.ParsedFeed;
import java.time.Instant;

/** Turns a parsed feed into items: identity, absolute urls, sanitised summary, media type, tags, dates. Pure. */
public final class EntryNormalizer {

    public EntryNormalizer(int maxSummaryLength) {
    }

    public FeedDocument normalize(ParsedFeed feed, Instant fetchedAt) {
        throw new UnsupportedOperationException("to be built");
    }
}

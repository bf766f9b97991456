package dev.tributary.pubsub;

import java.util.Arrays;
import java.util.Optional;

/** An expensive feature an operator can switch off at run time when the system is overloaded ({@link Switches}). */
public enum Feature {
    /** {@code GET /api/v1/streaming/home}: new streams get 503, open ones are ended. */
    LIVE_STREAMS("live-streams"),
    /**
     * The newest-page cache of home timelines and the kept unread counts: off, pages are read from
     * MySQL and pulled sources' counts over all their items (same answers), and what was kept is emptied.
     */
    PAGE_CACHE("page-cache"),
    /** A new subscriber's copy of the feed's latest items: off, they get only what arrives from then on. */
    SUBSCRIBE_BACKFILL("subscribe-backfill"),
    /** Reading, adding and deleting comments: 503. */
    COMMENTS("comments"),
    /** {@code POST /api/v1/subscriptions/import}: 503. */
    OPML_IMPORT("opml-import"),
    /** First fetches: claims take no never-fetched feed, and subscribing by URL to a feed not yet known is a 503. */
    NEW_FEED_CRAWLING("new-feed-crawling"),
    /** Fetching entries' full articles: a reader's uncached {@code /content} is a 503 (kept ones are still served) and nothing is fetched ahead of readers. */
    FULL_ARTICLES("full-articles");

    private final String wireName;

    Feature(String wireName) {
        this.wireName = wireName;
    }

    /** The name operators type, in metrics, health and the switches endpoint. */
    public String wireName() {
        return wireName;
    }

    /** The feature of that wire name, if there is one. */
    public static Optional<Feature> of(String wireName) {
        return Arrays.stream(values()).filter(f -> f.wireName.equals(wireName)).findFirst();
    }
}

package dev.tributary.crawler.schedule;

/** A feed's health as the API shows it ({@code source.status}). */
public enum CrawlStatusKind {
    /** The last fetch worked (or none has run yet). */
    OK("ok"),
    /** The last fetch failed; retried with backoff. */
    ERROR("error"),
    /** The feed answered 410 Gone: never fetched again. */
    GONE("gone"),
    /** Nobody read the feed for {@code tributary.crawler.retire-after}: not fetched until someone follows it again. */
    RETIRED("retired");

    private final String wireName;

    CrawlStatusKind(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    static CrawlStatusKind of(String wireName) {
        for (CrawlStatusKind kind : values()) {
            if (kind.wireName.equals(wireName)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown crawl status " + wireName);
    }
}

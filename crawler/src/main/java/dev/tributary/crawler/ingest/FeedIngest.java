package dev.tributary.crawler.ingest;

import dev.tributary.crawler.article.ArticleQueue;
import dev.tributary.crawler.article.ArticleStore;
import dev.tributary.crawler.normalize.EntryNormalizer;
import dev.tributary.crawler.normalize.FeedDocument;
import dev.tributary.crawler.parse.FeedFormatException;
import dev.tributary.crawler.parse.FeedParser;
import dev.tributary.crawler.parse.ParsedFeed;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.PublishResult;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * A fetched (or hub-delivered) feed body into pub/sub: parse, normalise, record what the feed
 * says about itself, publish its entries, and queue the new ones' full articles when someone reads
 * the feed in full. Shared by the crawl, subscribe-by-url and WebSub.
 */
@Component
public class FeedIngest {

    private final FeedParser parser;
    private final EntryNormalizer normalizer;
    private final Publisher publisher;
    private final Sources sources;
    private final IngestMetrics metrics;
    private final ArticleStore articles;
    private final ArticleQueue ahead;
    private final Items stored;
    private final Subscriptions subscriptions;
    private static final int WISHES_A_READ = 20;
    /** Lapsed wishes a crawl may clear before it gives up on finding a live one (the next crawl goes on). */
    private static final int WISHES_CHECKED = 200;

    FeedIngest(FeedParser parser, EntryNormalizer normalizer, Publisher publisher, Sources sources,
            IngestMetrics metrics, ArticleStore articles, ArticleQueue ahead, Items stored, Subscriptions subscriptions) {
        this.stored = stored;
        this.subscriptions = subscriptions;
        this.articles = articles;
        this.ahead = ahead;
        this.parser = parser;
        this.normalizer = normalizer;
        this.publisher = publisher;
        this.sources = sources;
        this.metrics = metrics;
    }

    /** Parses and normalises a body fetched from {@code url}. */
    public FeedDocument read(byte[] body, @Nullable String contentType, URI url, Instant fetchedAt)
            throws FeedFormatException {
        long start = System.nanoTime();
        try {
            ParsedFeed parsed = parser.parse(body, contentType, url);
            return normalizer.normalize(parsed, fetchedAt);
        } finally {
            metrics.parsed(System.nanoTime() - start);
        }
    }

    /**
     * Records the feed's title and site and publishes its entries; returns how many were new. The
     * document is the whole feed as fetched: what it carried becomes what a new subscriber receives.
     */
    public int publish(long sourceId, FeedDocument document) {
        return publish(sourceId, document, true);
    }

    /**
     * As {@link #publish(long, FeedDocument)} for a document that may carry only part of the feed
     * (a WebSub push often carries just the new entries): it does not replace the feed's current items.
     */
    public int publishPart(long sourceId, FeedDocument document) {
        return publish(sourceId, document, false);
    }

    private int publish(long sourceId, FeedDocument document, boolean whole) {
        long start = System.nanoTime();
        sources.describe(sourceId, document.title(), document.siteUrl());
        int created = 0;
        List<Long> carried = new ArrayList<>();
        List<Long> fresh = new ArrayList<>();
        List<NewItem> items = document.items();
        // Oldest first, so that when a feed is larger than one publish the newest get the highest ids;
        // cut so that the last part is a whole publish of the newest entries.
        List<NewItem> ordered = new ArrayList<>(items);
        ordered.sort((a, b) -> a.publishedAt().compareTo(b.publishedAt()));
        int first = ordered.size() % Publisher.MAX_ITEMS_PER_PUBLISH;
        int from = 0;
        do {
            int to = from == 0 && first > 0 ? first : Math.min(ordered.size(), from + Publisher.MAX_ITEMS_PER_PUBLISH);
            List<NewItem> chunk = ordered.subList(from, to);
            // The last part records, in its transaction, what the whole document carried: what a
            // new subscriber receives. A subscription never falls between the two (issue 45).
            PublishResult result = whole && to == ordered.size()
                    ? publisher.publishDocument(sourceId, chunk, carried)
                    : publisher.publish(sourceId, chunk);
            created += result.created().size();
            fresh.addAll(result.created());
            carried.addAll(result.carried());
            from = to;
        } while (from < ordered.size());
        if (!fresh.isEmpty() && readInFull(sourceId)) {
            // Someone reads this feed in full: its new items' articles are fetched ahead of them.
            ahead.offer(stored.getAll(fresh).stream().filter(item -> item.body().url() != null)
                    .map(item -> new ArticleQueue.Entry(item.id(), item.body().url())).toList());
        }
        metrics.published(created, System.nanoTime() - start);
        return created;
    }

    /**
     * Whether someone who still subscribes wants the feed read in full. A wish counts only while
     * its person subscribes; one that outlived its subscription (an unsubscription from before
     * wishes were withdrawn with it) is dropped here, so lapsed wishes cannot hide a live one for
     * long. At most {@link #WISHES_CHECKED} a crawl.
     */
    private boolean readInFull(long sourceId) {
        for (int checked = 0; checked < WISHES_CHECKED; ) {
            List<Long> wishers = articles.fullReaders(sourceId, WISHES_A_READ);
            for (long user : wishers) {
                if (subscriptions.find(user, sourceId).isPresent()) {
                    return true;
                }
                articles.wantFull(user, sourceId, false);
            }
            checked += wishers.size();
            if (wishers.size() < WISHES_A_READ) {
                return false;
            }
        }
        return false;
    }

}

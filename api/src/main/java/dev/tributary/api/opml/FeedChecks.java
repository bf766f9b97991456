package dev.tributary.api.opml;

import dev.tributary.api.web.FeedRejections;
import dev.tributary.crawler.FeedRejectedException;
import dev.tributary.crawler.FeedResolver;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.Stored;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * Fetches each feed of an import once, as subscribing by url does, so that a dead url (a 404 or
 * 410, a refused or timed-out connection, a page that is not a feed and names none) is reported
 * instead of imported. A feed already known is not fetched again. Checks run a few at a time;
 * those that would start after {@code tributary.api.opml.check-budget} are registered unchecked
 * (crawled soon, errors on the source afterwards), so an import of hundreds of feeds stays bounded
 * by the budget plus one fetch's timeout. Every check has ended when {@link #check} returns.
 */
@Component
@EnableConfigurationProperties(OpmlSettings.class)
class FeedChecks {

    private final FeedResolver feeds;
    private final OpmlSettings settings;
    private final Clock clock;

    FeedChecks(FeedResolver feeds, OpmlSettings settings) {
        this.feeds = feeds;
        this.settings = settings;
        this.clock = Clock.systemUTC();
    }

    /** What became of one url: its source, or why it was refused (the wire name of the reason, and a sentence). */
    record Checked(@Nullable Stored<Source> source, @Nullable String reason, @Nullable String refusal, boolean fetched) {
    }

    /** Every url's outcome, in the order given. */
    Map<String, Checked> check(Collection<String> urls) {
        Map<String, Checked> outcomes = new ConcurrentHashMap<>();
        Instant deadline = clock.instant().plus(settings.checkBudget());
        Semaphore slots = new Semaphore(settings.checkConcurrency());
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (String url : new LinkedHashSet<>(urls)) {
                slots.acquireUninterruptibly();
                boolean fetch = clock.instant().isBefore(deadline);
                executor.submit(() -> {
                    try {
                        outcomes.put(url, one(url, fetch));
                    } finally {
                        slots.release();
                    }
                });
            }
        }
        Map<String, Checked> ordered = new LinkedHashMap<>();
        new LinkedHashSet<>(urls).forEach(url -> ordered.put(url, outcomes.get(url)));
        return ordered;
    }

    private Checked one(String url, boolean fetch) {
        try {
            return fetch ? new Checked(feeds.resolve(url), null, null, true) : new Checked(feeds.register(url), null, null, false);
        } catch (FeedRejectedException e) {
            return new Checked(null, FeedRejections.wireName(e.reason()), FeedRejections.detail(e.reason(), e.getMessage()), fetch);
        }
    }
}

package dev.tributary.api.opml;

import dev.tributary.api.web.FeedRejections;
import dev.tributary.crawler.FeedRejectedException;
import dev.tributary.crawler.FeedResolver;
import dev.tributary.crawler.RejectionReason;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.Stored;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * Fetches each new feed of an import once, as subscribing by url does, so that a dead url (a 404
 * or 410, a refused or timed-out connection, a page that is not a feed and names none) is reported
 * instead of imported. A feed already known is not fetched again. Checks run a few at a time, and
 * the import waits for them only {@code tributary.api.opml.check-budget}: a url whose check has not
 * ended by then comes back {@link Checked#pending() pending}, for the import to register unchecked
 * (crawled at once; an error then shows on the source). A check already under way is not cut
 * short (that would interrupt its database writes): it ends in the background, bounded by one
 * fetch's timeout, on this component's executor; one not yet started never starts.
 */
@Component
@EnableConfigurationProperties(OpmlSettings.class)
class FeedChecks {

    private static final Logger log = LoggerFactory.getLogger(FeedChecks.class);

    private final FeedResolver feeds;
    private final OpmlSettings settings;
    private final Clock clock;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

    FeedChecks(FeedResolver feeds, OpmlSettings settings) {
        this.feeds = feeds;
        this.settings = settings;
        this.clock = Clock.systemUTC();
    }

    /**
     * What became of one url: its source, or why it was refused (the wire name of the reason, and
     * a sentence); neither if its check did not end within the budget.
     */
    record Checked(@Nullable Stored<Source> source, @Nullable String reason, @Nullable String refusal, boolean transientFailure) {

        static final Checked PENDING = new Checked(null, null, null, false);

        static Checked of(Stored<Source> source) {
            return new Checked(source, null, null, false);
        }

        static Checked refused(String reason, String refusal) {
            return new Checked(null, reason, refusal, false);
        }

        boolean pending() {
            return source == null && reason == null;
        }
    }

    /**
     * Answers a later fetch may not give again (a 5xx, a 429, no answer in time): the feed is
     * subscribed and retried by the crawler rather than dropped. Only answers that say the feed is
     * not there (404, 410, not a feed, a refused address or connection…) keep it out of an import.
     */
    static final Set<RejectionReason> TRANSIENT = EnumSet.of(RejectionReason.SERVER_ERROR, RejectionReason.RATE_LIMITED,
            RejectionReason.TIMEOUT);

    /** Every url's outcome, in the order given. */
    Map<String, Checked> check(Collection<String> urls) {
        Instant deadline = clock.instant().plus(settings.checkBudget());
        Semaphore slots = new Semaphore(settings.checkConcurrency());
        Map<String, Future<Checked>> started = new LinkedHashMap<>();
        for (String url : new LinkedHashSet<>(urls)) {
            if (!acquire(slots, deadline)) {
                break;
            }
            started.put(url, executor.submit(() -> {
                try {
                    return one(url);
                } finally {
                    slots.release();
                }
            }));
        }
        Map<String, Checked> outcomes = new LinkedHashMap<>();
        for (String url : new LinkedHashSet<>(urls)) {
            Future<Checked> check = started.get(url);
            outcomes.put(url, check == null ? Checked.PENDING : awaited(check, deadline));
        }
        return outcomes;
    }

    private Checked one(String url) {
        try {
            return Checked.of(feeds.resolve(url));
        } catch (FeedRejectedException e) {
            return new Checked(null, FeedRejections.wireName(e.reason()), FeedRejections.detail(e.reason(), e.getMessage()),
                    TRANSIENT.contains(e.reason()));
        }
    }

    private boolean acquire(Semaphore slots, Instant deadline) {
        try {
            return slots.tryAcquire(Math.max(0, Duration.between(clock.instant(), deadline).toNanos()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Checked awaited(Future<Checked> check, Instant deadline) {
        try {
            return check.get(Math.max(0, Duration.between(clock.instant(), deadline).toNanos()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return Checked.PENDING;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Checked.PENDING;
        } catch (java.util.concurrent.ExecutionException e) {
            // Not a refusal (those are outcomes): a fault of ours; the feed is registered unchecked and crawled.
            log.warn("checking an imported feed failed", e.getCause());
            return Checked.PENDING;
        }
    }

    /** Checks still under way end with the application (each within a fetch's timeout). */
    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }
}

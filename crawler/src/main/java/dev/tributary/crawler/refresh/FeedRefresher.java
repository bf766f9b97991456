package dev.tributary.crawler.refresh;

import dev.tributary.crawler.CrawlerSettings;
import dev.tributary.crawler.fetch.FailureReason;
import dev.tributary.crawler.fetch.FeedFetcher;
import dev.tributary.crawler.fetch.FetchFailure;
import dev.tributary.crawler.fetch.FetchOutcome;
import dev.tributary.crawler.fetch.FetchRequest;
import dev.tributary.crawler.fetch.FetchResult;
import dev.tributary.crawler.ingest.FeedIngest;
import dev.tributary.crawler.normalize.FeedDocument;
import dev.tributary.crawler.parse.FeedFormatException;
import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.schedule.CrawlStatusKind;
import dev.tributary.crawler.schedule.FetchRecord;
import dev.tributary.crawler.schedule.FetchSchedule;
import dev.tributary.crawler.schedule.HostGate;
import dev.tributary.crawler.websub.HubSubscriptions;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Sources;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.springframework.beans.factory.ObjectProvider;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Refreshes one claimed feed: a polite conditional fetch, then parse and publish what changed,
 * then record the feed's health and when it is due again. A feed whose host or address is busy
 * (for longer than about one of the host's answers, at most 100 ms) is handed back, due again at
 * its place in that host's queue, rather than waited for, so that a host that never answers holds
 * no more crawl slots than its politeness allows. Never throws
 * for a feed's fault.
 */
@Service
public class FeedRefresher {

    private static final Logger log = LoggerFactory.getLogger(FeedRefresher.class);

    private final FeedFetcher fetcher;
    private final FeedIngest ingest;
    private final CrawlStates states;
    private final FetchSchedule schedule;
    private final HostGate gate;
    private final HubSubscriptions hubs;
    private final GoneFeeds gone;
    private final Sources sources;
    private final CrawlMetrics metrics;
    private final Duration blockLimit;
    private final Clock clock;

    FeedRefresher(FeedFetcher fetcher, FeedIngest ingest, CrawlStates states, FetchSchedule schedule, HostGate gate,
            HubSubscriptions hubs, GoneFeeds gone, Sources sources, CrawlMetrics metrics, CrawlerSettings settings,
            ObjectProvider<Clock> clock) {
        this.fetcher = fetcher;
        this.ingest = ingest;
        this.states = states;
        this.schedule = schedule;
        this.gate = gate;
        this.hubs = hubs;
        this.gone = gone;
        this.sources = sources;
        this.metrics = metrics;
        // The fetcher bounds itself by the total timeout; this only guards against a bug there.
        this.blockLimit = settings.timeout().plusSeconds(10);
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * Fetches and processes {@code claimed}; returns what was recorded, or null if its host was
     * busy (the feed is handed back, due again shortly) or the lease was lost.
     */
    public @Nullable FetchRecord refresh(CrawlState claimed) throws InterruptedException {
        String host = HostGate.host(claimed.url());
        // In its reader's lane of the host's queue: a busy host deals its places round-robin over the people waiting.
        HostGate.Admission admission = gate.enter(host, claimed.lane(), () -> fetcher.address(claimed.url()), gate.patience(host));
        if (!admission.admitted()) {
            metrics.deferred();
            Duration back = jittered(admission.retryIn());
            states.defer(claimed, back);
            log.debug("feed {} {}: host busy, due again in {}", claimed.sourceId(), claimed.url(), back);
            return null;
        }
        FetchOutcome outcome;
        try (HostGate.Turn held = admission.turn()) {
            outcome = fetch(claimed);
            held.answered(outcome);
        }
        FetchRecord record = switch (outcome) {
            case FetchResult result when result.notModified() -> unchanged(claimed, result);
            case FetchResult result -> process(claimed, result);
            case FetchFailure failure -> failed(claimed, failure);
        };
        metrics.outcome(outcomeKey(outcome, record));
        if (!states.record(claimed, record)) {
            log.warn("feed {}: lease lost before its outcome was recorded; another node refetches it", claimed.sourceId());
            return null;
        }
        if (record.status() == CrawlStatusKind.GONE) {
            gone.retire(claimed.sourceId());
        }
        log.debug("feed {} {}: {} next in {}", claimed.sourceId(), claimed.url(), outcomeKey(outcome, record),
                record.nextFetchIn());
        return record;
    }

    private FetchOutcome fetch(CrawlState claimed) throws InterruptedException {
        FetchRequest request = new FetchRequest(claimed.url(), claimed.etag(), claimed.lastModified());
        long start = System.nanoTime();
        try {
            FetchOutcome outcome = fetcher.fetch(request).block(blockLimit);
            return outcome != null ? outcome
                    : new FetchFailure(FailureReason.PROTOCOL, "no response", null, null, claimed.url());
        } catch (IllegalStateException e) {
            // block() timed out: the fetcher failed to bound itself.
            return new FetchFailure(FailureReason.TIMEOUT, "the fetch did not finish in time", null, null, claimed.url());
        } finally {
            metrics.fetched(System.nanoTime() - start);
        }
    }

    /** A busy host's place in its queue, spread a little so that its feeds do not all return in the same instant. */
    private static Duration jittered(Duration retryIn) {
        long millis = Math.max(1, retryIn.toMillis());
        return Duration.ofMillis(millis + ThreadLocalRandom.current().nextLong(millis / 4 + 1));
    }

    private FetchRecord unchanged(CrawlState claimed, FetchResult result) {
        if (claimed.push() != null) {
            hubs.renewIfDue(claimed.sourceId());
        }
        boolean pushed = pushed(claimed);
        FetchSchedule.Plan plan = schedule.afterSuccess(claimed.interval(), false, java.util.List.of(),
                hints(result, null), pushed);
        return success(claimed, result, storedUrl(claimed, result), plan);
    }

    private FetchRecord process(CrawlState claimed, FetchResult result) {
        Instant now = clock.instant();
        FeedDocument document;
        try {
            document = ingest.read(result.body(), result.contentType(), result.documentBase(), now);
        } catch (FeedFormatException e) {
            return failed(claimed, e.reason().key(), e.getMessage(), result.status(), null);
        }
        URI url = storedUrl(claimed, result);
        int created = ingest.publish(claimed.sourceId(), document);
        boolean pushed = pushed(claimed);
        if (document.hub() != null || claimed.push() != null) {
            hubs.offer(claimed.sourceId(), document.hub(), document.self() != null ? document.self() : url);
            pushed = hubs.isPushed(claimed.sourceId());
        }
        FetchSchedule.Plan plan = schedule.afterSuccess(claimed.interval(), created > 0,
                document.items().stream().map(NewItem::publishedAt).toList(), hints(result, document.ttl()), pushed);
        return success(claimed, result, url, plan);
    }

    private boolean pushed(CrawlState claimed) {
        return claimed.push() != null && claimed.push().activeAt(clock.instant());
    }

    /** After a permanent redirect the feed is fetched (and, if no other source has it, listed) at its new url. */
    private URI storedUrl(CrawlState claimed, FetchResult result) {
        URI moved = result.movedTo();
        if (moved == null || moved.equals(claimed.url())) {
            return claimed.url();
        }
        if (!sources.moveFeed(claimed.sourceId(), moved.toString())) {
            log.info("feed {} moved to {}, which another source already has; fetching it there", claimed.sourceId(), moved);
        }
        return moved;
    }

    private FetchRecord success(CrawlState claimed, FetchResult result, URI url, FetchSchedule.Plan plan) {
        String etag = result.etag() != null || result.notModified() ? coalesce(result.etag(), claimed.etag()) : null;
        String lastModified = result.lastModified() != null || result.notModified()
                ? coalesce(result.lastModified(), claimed.lastModified()) : null;
        return new FetchRecord(CrawlStatusKind.OK, url, etag, lastModified, plan.interval(), plan.delay(), 0,
                result.status(), null, null);
    }

    private FetchRecord failed(CrawlState claimed, FetchFailure failure) {
        if (failure.reason() == FailureReason.GONE) {
            return new FetchRecord(CrawlStatusKind.GONE, claimed.url(), null, null, claimed.interval(), Duration.ZERO,
                    claimed.consecutiveErrors() + 1, failure.status(), failure.reason().key(), failure.detail());
        }
        return failed(claimed, failure.reason().key(), failure.detail(), failure.status(), failure.retryAfter());
    }

    private FetchRecord failed(CrawlState claimed, String key, String detail, @Nullable Integer status,
            @Nullable Duration retryAfter) {
        int errors = claimed.consecutiveErrors() + 1;
        FetchSchedule.Plan plan = schedule.afterError(claimed.interval(), errors, retryAfter);
        if (errors == 1 || errors % 10 == 0) {
            log.info("feed {} {}: {} ({}), error {} in a row, next try in {}", claimed.sourceId(), claimed.url(), key,
                    detail, errors, plan.delay());
        }
        return new FetchRecord(CrawlStatusKind.ERROR, claimed.url(), claimed.etag(), claimed.lastModified(),
                plan.interval(), plan.delay(), errors, status, key, detail);
    }

    private FetchSchedule.Hints hints(FetchResult result, @Nullable Duration ttl) {
        Duration expiresIn = result.expires() == null ? null : Duration.between(clock.instant(), result.expires());
        return new FetchSchedule.Hints(result.maxAge(), expiresIn != null && expiresIn.isNegative() ? null : expiresIn, ttl);
    }

    private static String outcomeKey(FetchOutcome outcome, FetchRecord record) {
        return switch (outcome) {
            case FetchResult result when result.notModified() -> "not_modified";
            case FetchResult result -> record.errorKey() == null ? "ok" : record.errorKey();
            case FetchFailure failure -> failure.reason().key();
        };
    }

    private static @Nullable String coalesce(@Nullable String a, @Nullable String b) {
        return a != null ? a : b;
    }
}

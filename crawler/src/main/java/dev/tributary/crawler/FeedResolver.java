package dev.tributary.crawler;

import dev.tributary.crawler.fetch.FeedFetcher;
import dev.tributary.crawler.fetch.FeedUrls;
import dev.tributary.crawler.fetch.FetchFailure;
import dev.tributary.crawler.fetch.FetchOutcome;
import dev.tributary.crawler.fetch.FetchRequest;
import dev.tributary.crawler.fetch.FetchResult;
import dev.tributary.crawler.normalize.FeedDocument;
import dev.tributary.crawler.parse.FeedFormatException;
import dev.tributary.crawler.parse.HtmlFeedLinks;
import dev.tributary.crawler.ingest.FeedIngest;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.schedule.CrawlStatusKind;
import dev.tributary.crawler.schedule.FetchSchedule;
import dev.tributary.crawler.schedule.HostGate;
import dev.tributary.crawler.websub.HubSubscriptions;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.Switches;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stored;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * Subscribe-by-url: turns a url a person gives into a crawled feed source. A url already known
 * is answered at once; a new one is fetched once (behind the same guards as the crawl): a feed
 * is accepted and its entries published at once; an HTML page is searched for the feeds it
 * names (autodiscovery); anything else is refused with the reason. Its fetches take turns with
 * the crawl's at the {@link HostGate}, and at most {@code resolve-concurrency} run at once.
 *
 * <p>A subscription is never refused for politeness (issue 47): when the gate has no turn for the
 * fetch (the host paused by another feed's {@code Retry-After}, or busy), or the site itself answers
 * 429 or 503 with a {@code Retry-After}, the feed is accepted unfetched (pending) and the crawl fetches
 * it first when the gate or that {@code Retry-After} allows; its errors then show on the source.
 */
@Service
public class FeedResolver {

    private static final Logger log = LoggerFactory.getLogger(FeedResolver.class);
    /** Feeds a page names that are tried, best first. */
    private static final int CANDIDATES = 3;

    private final FeedFetcher fetcher;
    private final HtmlFeedLinks links;
    private final FeedIngest ingest;
    private final Sources sources;
    private final CrawlStates states;
    private final FetchSchedule schedule;
    private final HubSubscriptions hubs;
    private final HostGate gate;
    private final Semaphore fetches;
    private final Duration blockLimit;
    private final Duration wait;
    private final Clock clock;
    private final Switches switches;

    FeedResolver(FeedFetcher fetcher, HtmlFeedLinks links, FeedIngest ingest, Sources sources, CrawlStates states,
            FetchSchedule schedule, HubSubscriptions hubs, HostGate gate, CrawlerSettings settings,
            ObjectProvider<Clock> clock, Switches switches) {
        this.switches = switches;
        this.fetcher = fetcher;
        this.links = links;
        this.ingest = ingest;
        this.sources = sources;
        this.states = states;
        this.schedule = schedule;
        this.hubs = hubs;
        this.gate = gate;
        this.fetches = new Semaphore(settings.resolveConcurrency(), true);
        this.blockLimit = settings.timeout().plusSeconds(10);
        // A person waits for a turn as long as one fetch may take, no longer.
        this.wait = settings.timeout();
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * The feed source for {@code url} (a feed, or a page naming one), created and crawled from
     * now on if new.
     *
     * @throws FeedRejectedException if it cannot be subscribed to, saying why
     */
    public Stored<Source> resolve(String url) {
        URI given = canonical(() -> FeedUrls.normalize(url));
        Optional<Stored<Source>> known = knownFeed(given);
        if (known.isPresent()) {
            return known.get();
        }
        switches.requireOn(Feature.NEW_FEED_CRAWLING);
        Attempt attempt = attempt(given);
        if (attempt.result() == null) {
            return pending(given, attempt.retryIn());
        }
        FetchResult page = attempt.result();
        try {
            FeedDocument document = ingest.read(page.body(), page.contentType(), page.documentBase(), clock.instant());
            return accept(given, page, document);
        } catch (FeedFormatException e) {
            if (e.reason() != FeedFormatException.Reason.NOT_A_FEED) {
                throw new FeedRejectedException(RejectionReason.of(e.reason()), "this feed cannot be read: " + e.getMessage());
            }
            return discover(given, page, e);
        }
    }

    /**
     * The feed source for {@code url}, registered to be crawled at once but not fetched now (for
     * bulk imports such as OPML: errors show on the source afterwards).
     *
     * @throws FeedRejectedException if the url is not a valid http(s) url
     */
    public Stored<Source> register(String url) {
        URI given = canonical(() -> FeedUrls.normalize(url));
        Stored<Source> source = sources.feed(given.toString());
        states.register(source.id(), given, schedule.initialInterval(), Duration.ZERO);
        return source;
    }

    /** What became of one url of a {@link #registerAll bulk registration}: its source, or why it was refused. */
    public record Registration(@Nullable Stored<Source> source, @Nullable FeedRejectedException refusal) {
    }

    /**
     * {@link #register} for many feeds at once (an import's), in a few statements instead of a
     * few per feed, by the url as given. Each feed's {@code title} and {@code siteUrl} stand in
     * until its first fetch, for one that has no title yet.
     */
    public Map<String, Registration> registerAll(List<Sources.NewFeed> feeds) {
        Map<String, Registration> outcomes = new LinkedHashMap<>();
        Map<String, URI> normal = new LinkedHashMap<>();
        for (Sources.NewFeed feed : feeds) {
            try {
                normal.put(feed.url(), canonical(() -> FeedUrls.normalize(feed.url())));
            } catch (FeedRejectedException e) {
                outcomes.put(feed.url(), new Registration(null, e));
            }
        }
        Map<String, Stored<Source>> registered = sources.feeds(feeds.stream().filter(feed -> normal.containsKey(feed.url()))
                .map(feed -> new Sources.NewFeed(normal.get(feed.url()).toString(), feed.title(), feed.siteUrl())).toList());
        Map<Long, URI> states = new LinkedHashMap<>();
        normal.forEach((given, url) -> {
            Stored<Source> source = registered.get(url.toString());
            states.put(source.id(), url);
            outcomes.put(given, new Registration(source, null));
        });
        this.states.registerAll(states, schedule.initialInterval());
        return outcomes;
    }

    /**
     * The feed sources already known for these urls, by the url as given, without registering or
     * fetching anything; an invalid url is simply not found.
     */
    public Map<String, Stored<Source>> findAll(Collection<String> urls) {
        Map<String, String> normal = new LinkedHashMap<>();
        for (String url : urls) {
            try {
                normal.put(url, canonical(() -> FeedUrls.normalize(url)).toString());
            } catch (FeedRejectedException invalid) {
                // not a feed anyone can follow, so not one the person follows
            }
        }
        Map<String, Stored<Source>> known = sources.findFeeds(normal.values());
        Map<String, Stored<Source>> found = new LinkedHashMap<>();
        normal.forEach((given, url) -> {
            if (known.containsKey(url)) {
                found.put(given, known.get(url));
            }
        });
        return found;
    }

    /**
     * The feed source already known for {@code url}, without registering or fetching anything
     * (an import that may subscribe no more asks only whether an outline is one the person has).
     *
     * @throws FeedRejectedException if the url is not a valid http(s) url
     */
    public Optional<Stored<Source>> find(String url) {
        return sources.findFeed(canonical(() -> FeedUrls.normalize(url)).toString());
    }

    private Optional<Stored<Source>> knownFeed(URI url) {
        Optional<Stored<Source>> source = sources.findFeed(url.toString());
        source.ifPresent(found -> {
            states.register(found.id(), url, schedule.initialInterval(), Duration.ZERO);
            states.find(found.id()).filter(state -> state.status() == CrawlStatusKind.GONE).ifPresent(state -> {
                throw new FeedRejectedException(RejectionReason.GONE, "this feed has been removed by its publisher (410 Gone)");
            });
        });
        return source;
    }

    /** A subscribe-time fetch: what it fetched, or (result null) that it must wait {@code retryIn} and be crawled then. */
    private record Attempt(@Nullable FetchResult result, Duration retryIn) {
    }

    private Attempt attempt(URI url) {
        Politely outcome;
        try {
            outcome = politely(url);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FeedRejectedException(RejectionReason.TIMEOUT, "interrupted while fetching");
        }
        if (outcome.outcome() == null) {
            if (outcome.gateRetryIn() != null) {
                return new Attempt(null, outcome.gateRetryIn());
            }
            throw new FeedRejectedException(RejectionReason.TIMEOUT, "the site did not answer in time");
        }
        return switch (outcome.outcome()) {
            case FetchResult result -> new Attempt(result, Duration.ZERO);
            // The site asked for time: its word governs this feed's schedule, as it would the crawl's.
            case FetchFailure failure when isThrottled(failure) ->
                    new Attempt(null, schedule.firstFetchAfter(failure.retryAfter()));
            case FetchFailure failure -> throw new FeedRejectedException(RejectionReason.of(failure.reason()), failure.detail());
        };
    }

    private static boolean isThrottled(FetchFailure failure) {
        return failure.status() != null && (failure.status() == 429 || failure.status() == 503)
                && failure.retryAfter() != null && failure.retryAfter().isPositive();
    }

    /** A fetch's outcome (null if it took too long), or, when the gate gave no turn, when the host's queue has one. */
    private record Politely(@Nullable FetchOutcome outcome, @Nullable Duration gateRetryIn) {
    }

    /** One fetch within the node's bound on them and the site's politeness. */
    private Politely politely(URI url) throws InterruptedException {
        if (!fetches.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
            // This node's own bound on subscribe-time fetches, whatever the site: the person is asked to retry.
            throw new FeedRejectedException(RejectionReason.TIMEOUT, "too many subscriptions being checked at once; try again shortly");
        }
        try {
            HostGate.Admission admission = gate.enter(HostGate.host(url), () -> fetcher.address(url), wait);
            if (!admission.admitted()) {
                return new Politely(null, admission.retryIn());
            }
            try (HostGate.Turn held = admission.turn()) {
                FetchOutcome outcome = fetcher.fetch(FetchRequest.of(url)).block(blockLimit);
                if (outcome != null) {
                    held.answered(outcome);
                }
                return new Politely(outcome, null);
            } catch (IllegalStateException e) {
                return new Politely(null, null);
            }
        } finally {
            fetches.release();
        }
    }

    /**
     * The feed accepted unfetched, its first fetch in {@code retryIn}: the crawl fetches it then at
     * its turn, and what it finds (entries, or an error) shows on the source. A url already
     * registered keeps its own schedule.
     */
    private Stored<Source> pending(URI url, Duration retryIn) {
        Stored<Source> source = sources.feed(url.toString());
        states.register(source.id(), url, schedule.initialInterval(), retryIn);
        log.info("feed {} {} accepted pending: first fetch in {}", source.id(), url, retryIn);
        return source;
    }

    private Stored<Source> discover(URI given, FetchResult page, FeedFormatException notAFeed) {
        List<URI> candidates = links.find(page.body(), page.contentType(), page.finalUrl());
        if (candidates.isEmpty()) {
            throw new FeedRejectedException(RejectionReason.NOT_A_FEED, "no feed found at this address: " + notAFeed.getMessage());
        }
        FeedRejectedException last = null;
        for (URI candidate : candidates.subList(0, Math.min(CANDIDATES, candidates.size()))) {
            try {
                URI url = canonical(() -> FeedUrls.normalize(candidate));
                Optional<Stored<Source>> known = knownFeed(url);
                if (known.isPresent()) {
                    return known.get();
                }
                Attempt attempt = attempt(url);
                if (attempt.result() == null) {
                    return pending(url, attempt.retryIn());
                }
                FetchResult feed = attempt.result();
                FeedDocument document = ingest.read(feed.body(), feed.contentType(), feed.documentBase(), clock.instant());
                return accept(url, feed, document);
            } catch (FeedRejectedException e) {
                last = e;
            } catch (FeedFormatException e) {
                last = new FeedRejectedException(RejectionReason.of(e.reason()),
                        "the feed " + candidate + " this page names is not readable: " + e.getMessage());
            }
        }
        log.debug("no readable feed among {} named by {}", candidates, given);
        throw last;
    }

    private Stored<Source> accept(URI requested, FetchResult result, FeedDocument document) {
        URI url = result.movedTo() != null ? canonical(() -> FeedUrls.normalize(result.movedTo())) : requested;
        Stored<Source> source = sources.feed(url.toString());
        Duration interval = schedule.initialInterval();
        if (states.registerFetched(source.id(), url, interval, result.status(), result.etag(), result.lastModified())) {
            ingest.publish(source.id(), document);
            hubs.offer(source.id(), document.hub(), document.self() != null ? document.self() : url);
            log.info("feed {} {} found: {} entries", source.id(), url, document.items().size());
        }
        return sources.get(source.id());
    }

    /** The normal form of a url a person gave or a page named; an invalid one is rejected as such. */
    private static URI canonical(Supplier<URI> normalize) {
        try {
            return normalize.get();
        } catch (FeedUrls.InvalidUrlException e) {
            throw new FeedRejectedException(RejectionReason.INVALID_URL, e.getMessage());
        }
    }
}

package dev.tributary.crawler;

import dev.tributary.crawler.article.ArticleExtractor;
import dev.tributary.crawler.article.ArticleQueue;
import dev.tributary.crawler.article.ArticleStore;
import dev.tributary.crawler.fetch.FeedFetcher;
import dev.tributary.crawler.fetch.FeedUrls;
import dev.tributary.crawler.fetch.FetchFailure;
import dev.tributary.crawler.fetch.FetchLimits;
import dev.tributary.crawler.fetch.FetchOutcome;
import dev.tributary.crawler.fetch.FetchRequest;
import dev.tributary.crawler.fetch.FetchResult;
import dev.tributary.crawler.schedule.HostGate;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.Switches;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * Entries' full articles: fetched from the item's page through the crawler's guarded fetcher
 * (the same SSRF guard, redirect checks and politeness as feeds, with the page limits of
 * {@link ArticleSettings}), extracted and sanitised, and kept in MySQL for every reader of the
 * item. However many readers ask at once, a node fetches an item's page once (the others wait
 * for that fetch), and a kept failure answers later readers for {@code retry-after} without a
 * fetch. Who may see the item, and how often a person may cause a fetch, is the caller's to check.
 */
@Service
public class FullArticles implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(FullArticles.class);

    private final FeedFetcher pages;
    private final ArticleExtractor extractor;
    private final ArticleStore store;
    private final HostGate gate;
    private final ArticleSettings settings;
    private final Clock clock;
    private final Semaphore fetches;
    private final Map<Long, CompletableFuture<Article>> inFlight = new ConcurrentHashMap<>();
    private final Counter fetched;
    private final Counter failed;
    private final Switches switches;
    private final ArticleQueue ahead;
    private final Thread aheadWorker;

    FullArticles(ArticleStore store, HostGate gate, ArticleSettings settings, CrawlerSettings crawler, Switches switches,
            ArticleQueue ahead, ObjectProvider<Clock> clock, ObjectProvider<MeterRegistry> registry) {
        this.switches = switches;
        this.ahead = ahead;
        MeterRegistry meters = registry.getIfAvailable(io.micrometer.core.instrument.simple.SimpleMeterRegistry::new);
        this.clock = clock.getIfAvailable(Clock::systemUTC);
        this.pages = FeedFetcher.forPages(new FetchLimits(crawler.connectTimeout(), settings.timeout(), crawler.maxRedirects(),
                settings.maxPageSize().toBytes(), settings.maxDecompressedSize().toBytes(), crawler.userAgent(),
                crawler.allowPrivate()), this.clock);
        this.extractor = new ArticleExtractor((int) settings.maxStoredSize().toBytes());
        this.store = store;
        this.gate = gate;
        this.settings = settings;
        this.fetches = new Semaphore(settings.concurrency(), true);
        this.fetched = Counter.builder("tributary.articles.fetches").tag("outcome", "article").register(meters);
        this.failed = Counter.builder("tributary.articles.fetches").tag("outcome", "failure").register(meters);
        io.micrometer.core.instrument.Gauge.builder("tributary.articles.queued", ahead, ArticleQueue::size)
                .description("new items waiting for their article to be fetched ahead of readers").register(meters);
        this.aheadWorker = Thread.ofVirtual().name("articles-ahead").start(this::fetchAhead);
    }

    /**
     * Records (or withdraws) the person's wish that their subscription's source be read in full:
     * each new item's article fetched once after it arrives, while they subscribe.
     */
    public void readInFull(long userId, long sourceId, boolean wanted) {
        store.wantFull(userId, sourceId, wanted);
    }

    /** The sources the person reads in full. */
    public Set<Long> readInFull(long userId) {
        return Set.copyOf(store.fullSources(userId));
    }

    /**
     * Drains the queue of new items of sources read in full, one at a time (each takes its turn
     * at the site like any fetch): an item already kept, or whose page failed lately, is not
     * fetched again; with {@link Feature#FULL_ARTICLES} off, items are let go to readers.
     */
    private void fetchAhead() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                ArticleQueue.Entry next = ahead.next(1000);
                if (next == null || !switches.isOn(Feature.FULL_ARTICLES)) {
                    continue;
                }
                article(next.itemId(), next.url());
            } catch (InterruptedException e) {
                return;
            } catch (ArticleUnavailableException refused) {
                // kept as the item's failure; its readers hear it
            } catch (RuntimeException e) {
                log.warn("fetching an article ahead of readers failed: {}", e.toString());
            }
        }
    }

    /**
     * The item's kept article, if one is fresh (fetched within {@code keep}); empty if there is
     * none and a fetch is needed.
     *
     * @throws ArticleUnavailableException if its last fetch failed within {@code retry-after}
     */
    public Optional<Article> kept(long itemId) {
        Optional<ArticleStore.Row> row = store.find(itemId);
        if (row.isEmpty()) {
            return Optional.empty();
        }
        ArticleStore.Row found = row.get();
        if (found.html() != null) {
            return found.fetchedAt().isAfter(clock.instant().minus(settings.keep())) ? Optional.of(article(found)) : Optional.empty();
        }
        if (found.fetchedAt().isAfter(clock.instant().minus(settings.retryAfter()))) {
            throw new ArticleUnavailableException(reason(found.failure()), found.detail() == null ? "the page could not be read" : found.detail());
        }
        return Optional.empty();
    }

    /** The fresh kept articles of these items (failures left out), by item id: one query per 500 ids. */
    public Map<Long, Article> keptAll(Collection<Long> itemIds) {
        if (itemIds.isEmpty()) {
            return Map.of();
        }
        return store.articles(itemIds, clock.instant().minus(settings.keep())).values().stream()
                .collect(Collectors.toUnmodifiableMap(ArticleStore.Row::itemId, FullArticles::article));
    }

    /**
     * The item's article: the kept one, else fetched from {@code url} now (once per node however
     * many ask at once), kept, and answered.
     *
     * @throws ArticleUnavailableException if the page cannot give one, saying why
     * @throws dev.tributary.pubsub.FeatureSwitchedOffException if none is kept and the operator
     *     switched {@link Feature#FULL_ARTICLES} off
     */
    public Article article(long itemId, @Nullable String url) {
        CompletableFuture<Article> mine = new CompletableFuture<>();
        CompletableFuture<Article> running = inFlight.putIfAbsent(itemId, mine);
        if (running != null) {
            return awaited(running);
        }
        try {
            Article article = load(itemId, url);
            mine.complete(article);
            return article;
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            inFlight.remove(itemId, mine);
        }
    }

    /** Removes at most {@code limit} kept articles and failures older than {@code keep}; how many went. */
    public int expire(int limit) {
        return store.removeOlderThan(clock.instant().minus(settings.keep()), limit);
    }

    private Article awaited(CompletableFuture<Article> running) {
        try {
            // The fetch being waited for ends within its own timeout and a turn's wait.
            return running.get(settings.timeout().multipliedBy(2).plusSeconds(5).toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ArticleUnavailableException unavailable) {
                throw new ArticleUnavailableException(unavailable.reason(), unavailable.getMessage());
            }
            if (e.getCause() instanceof RuntimeException same) {
                // What the fetching reader heard (the feature switched off, say), every waiting reader hears.
                throw same;
            }
            throw new IllegalStateException("fetching an article failed", e.getCause());
        } catch (TimeoutException e) {
            throw new ArticleUnavailableException(RejectionReason.TIMEOUT, "the page did not answer in time");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ArticleUnavailableException(RejectionReason.TIMEOUT, "interrupted while fetching the page");
        }
    }

    /** Checked again by the one fetching: a fetch that ended just before may have kept the article. */
    private Article load(long itemId, @Nullable String url) {
        Optional<Article> kept = kept(itemId);
        if (kept.isPresent()) {
            return kept.get();
        }
        switches.requireOn(Feature.FULL_ARTICLES);
        if (url == null || url.isBlank()) {
            throw new ArticleUnavailableException(RejectionReason.INVALID_URL, "this item links to no page");
        }
        URI page;
        try {
            page = FeedUrls.normalize(url);
        } catch (FeedUrls.InvalidUrlException e) {
            throw new ArticleUnavailableException(RejectionReason.INVALID_URL, "this item's link is not a web page address");
        }
        FetchOutcome outcome = politely(page);
        return switch (outcome) {
            case FetchFailure failure -> throw refused(itemId, page, RejectionReason.of(failure.reason()), failure.detail());
            case FetchResult result -> extracted(itemId, page, result);
        };
    }

    private Article extracted(long itemId, URI page, FetchResult result) {
        ArticleExtractor.Extracted extracted;
        try {
            extracted = extractor.extract(result.body(), result.contentType(), result.finalUrl());
        } catch (ArticleExtractor.NoArticleException e) {
            RejectionReason reason = e.refusal() == ArticleExtractor.Refusal.NOT_HTML ? RejectionReason.NOT_HTML : RejectionReason.NO_ARTICLE;
            throw refused(itemId, result.finalUrl(), reason, e.getMessage());
        }
        String url = stored(result.finalUrl(), page);
        ArticleStore.Row row = new ArticleStore.Row(itemId, clock.instant(), url, extracted.title(), extracted.byline(),
                extracted.html(), extracted.truncated(), null, null);
        store.save(row);
        fetched.increment();
        log.debug("article of item {} fetched from {}: {} characters", itemId, url, extracted.html().length());
        return article(row);
    }

    /** Keeps the failure (later readers hear it without a fetch) and answers it. */
    private ArticleUnavailableException refused(long itemId, URI url, RejectionReason reason, String detail) {
        String sentence = detail.length() <= 500 ? detail : detail.substring(0, 499) + "…";
        store.save(new ArticleStore.Row(itemId, clock.instant(), stored(url, url), null, null, null, false, reason.name(), sentence));
        failed.increment();
        return new ArticleUnavailableException(reason, sentence);
    }

    /** One fetch within the node's bound on article fetches and the site's politeness. */
    private FetchOutcome politely(URI url) {
        Duration wait = settings.timeout();
        try {
            if (!fetches.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                throw busy();
            }
            try {
                HostGate.Admission admission = gate.enter(HostGate.host(url), () -> pages.address(url), wait);
                if (!admission.admitted()) {
                    throw busy();
                }
                try (HostGate.Turn held = admission.turn()) {
                    FetchOutcome outcome = pages.fetch(FetchRequest.of(url)).block(wait.plusSeconds(10));
                    if (outcome == null) {
                        throw busy();
                    }
                    held.answered(outcome);
                    return outcome;
                }
            } finally {
                fetches.release();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ArticleUnavailableException(RejectionReason.TIMEOUT, "interrupted while fetching the page");
        }
    }

    /** Not kept: the page was not asked, this node was only too busy. */
    private static ArticleUnavailableException busy() {
        return new ArticleUnavailableException(RejectionReason.TIMEOUT,
                "too many pages are being fetched from this site or by this server at once; try again shortly");
    }

    /** The url kept with the row: the final one, or the item's own (within the column) if redirects made it longer. */
    private static String stored(URI url, URI fallback) {
        String text = url.toString();
        if (text.length() <= FeedUrls.MAX_LENGTH) {
            return text;
        }
        String given = fallback.toString();
        return given.substring(0, Math.min(given.length(), FeedUrls.MAX_LENGTH));
    }

    private static Article article(ArticleStore.Row row) {
        return new Article(row.itemId(), row.html(), row.title(), row.byline(), row.url(), row.fetchedAt(), row.truncated());
    }

    private static RejectionReason reason(@Nullable String name) {
        try {
            return name == null ? RejectionReason.NO_ARTICLE : RejectionReason.valueOf(name);
        } catch (IllegalArgumentException renamed) {
            return RejectionReason.NO_ARTICLE;
        }
    }

    @Override
    public void destroy() {
        aheadWorker.interrupt();
        pages.close();
    }
}

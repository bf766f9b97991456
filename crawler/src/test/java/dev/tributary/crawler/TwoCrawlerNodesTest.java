package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.refresh.CrawlWorkers;
import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.testing.CrawlerTestApplication;
import dev.tributary.crawler.testing.FeedServer;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two crawler nodes on one database share the due feeds through their leases: every feed is
 * fetched once per interval, never by both.
 */
class TwoCrawlerNodesTest {

    private static final int FEEDS = 60;
    private static final long READER = 4_200_001L;

    private static ConfigurableApplicationContext node() {
        return new SpringApplicationBuilder(CrawlerTestApplication.class)
                .web(WebApplicationType.NONE)
                .properties("tributary.crawler.concurrency=4", "tributary.crawler.poll-interval=100ms",
                        "tributary.crawler.allow-private=127.0.0.0/8", "tributary.crawler.per-host-delay=0s",
                        "tributary.crawler.per-host-concurrency=8", "tributary.crawler.min-interval=1h",
                        "tributary.crawler.timeout=5s", "tributary.crawler.lease-ttl=30s",
                        "tributary.fanout.workers=0", "tributary.storage.cleaner.enabled=false")
                .run();
    }

    @Test
    void twoNodesFetchEveryDueFeedExactlyOnce() {
        String prefix = "/" + UUID.randomUUID();
        Instant newest = Instant.now().minus(1, ChronoUnit.HOURS);
        try (FeedServer server = FeedServer.start().latency(Duration.ofMillis(40));
                ConfigurableApplicationContext first = node(); ConfigurableApplicationContext second = node()) {
            List<Long> feeds = new ArrayList<>();
            for (int i = 0; i < FEEDS; i++) {
                server.feed(prefix + "/" + i + ".xml", TestFeeds.numbered("Feed " + i, 2, newest));
                ConfigurableApplicationContext by = i % 2 == 0 ? first : second;
                long feed = by.getBean(FeedResolver.class).register(server.url(prefix + "/" + i + ".xml").toString()).id();
                // Only feeds someone reads are crawled.
                by.getBean(Subscriptions.class).subscribe(READER, feed, List.of());
                feeds.add(feed);
            }

            awaitAllFetched(first.getBean(CrawlStates.class), feeds, Duration.ofSeconds(90));

            for (int i = 0; i < FEEDS; i++) {
                assertThat(server.requests(prefix + "/" + i + ".xml")).as("feed %d", i).hasSize(1);
            }
            assertThat(first.getBean(CrawlWorkers.class).refreshed()).as("first node").isPositive();
            assertThat(second.getBean(CrawlWorkers.class).refreshed()).as("second node").isPositive();
            for (CrawlState state : first.getBean(CrawlStates.class).findAll(feeds)) {
                assertThat(state.nextFetchAt()).as("next fetch of %d", state.sourceId())
                        .isAfter(Instant.now().plus(Duration.ofMinutes(50)));
            }
        }
    }

    private static void awaitAllFetched(CrawlStates states, List<Long> feeds, Duration timeout) {
        Await.until("every feed to be fetched", timeout,
                () -> states.findAll(feeds).stream().noneMatch(state -> state.fetchCount() == 0));
    }
}

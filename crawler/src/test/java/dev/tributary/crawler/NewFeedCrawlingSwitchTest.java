package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.FeatureSwitchedOffException;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Switches;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The {@code new-feed-crawling} switch: off, first fetches wait and refreshes go on. */
@WithEmbeddedCrawler
class NewFeedCrawlingSwitchTest {

    private static final Duration LEASE = Duration.ofMillis(1);

    @Autowired FeedResolver resolver;
    @Autowired CrawlStates states;
    @Autowired Subscriptions subscriptions;
    @Autowired Switches switches;
    @Autowired JdbcClient jdbc;

    private final long reader = ThreadLocalRandom.current().nextLong(1_000_000, Long.MAX_VALUE / 2);

    @AfterEach
    void onAgain() {
        switches.set(Feature.NEW_FEED_CRAWLING, true);
    }

    @Test
    void switchedOffAClaimTakesNoNeverFetchedFeedAndOnAgainItDoes() {
        long fresh = readFeed();
        long known = readFeed();
        // Due before anything other tests left due, the fresh one first.
        jdbc.sql("UPDATE crawl_state SET next_fetch_at = '2000-01-01' WHERE source_id = ?").param(fresh).update();
        jdbc.sql("UPDATE crawl_state SET fetch_count = 3, next_fetch_at = '2000-01-02' WHERE source_id = ?").param(known).update();
        switches.set(Feature.NEW_FEED_CRAWLING, false);

        List<Long> claimed = claim();

        assertThat(claimed).contains(known).doesNotContain(fresh);
        switches.set(Feature.NEW_FEED_CRAWLING, true);
        assertThat(claim()).as("its share of the claim is back").contains(fresh);
    }

    @Test
    void switchedOffSubscribingByUrlToAnUnknownFeedIsRefusedBeforeAnyFetch() {
        switches.set(Feature.NEW_FEED_CRAWLING, false);
        String url = "http://127.0.0.1:9/" + UUID.randomUUID() + ".xml";

        FeatureSwitchedOffException refused = assertThrows(FeatureSwitchedOffException.class,
                () -> resolver.resolve(url));

        assertThat(refused.feature()).isEqualTo(Feature.NEW_FEED_CRAWLING);
        switches.set(Feature.NEW_FEED_CRAWLING, true);
        assertThat(assertThrows(FeedRejectedException.class, () -> resolver.resolve(url)).reason())
                .as("on again, it is fetched (and nothing listens there)").isEqualTo(RejectionReason.CONNECT);
    }

    private List<Long> claim() {
        return states.claimDue("test", 4, LEASE).stream().map(CrawlState::sourceId).toList();
    }

    private long readFeed() {
        long feed = resolver.register("https://feeds.example/" + UUID.randomUUID() + ".xml").id();
        subscriptions.subscribe(reader, feed, List.of());
        return feed;
    }
}

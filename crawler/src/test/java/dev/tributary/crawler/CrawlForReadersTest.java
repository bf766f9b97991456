package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.schedule.CrawlStatusKind;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Only feeds someone reads are crawled: a feed without a subscriber or a profile attaching it is
 * not claimed, is retired after {@code retire-after}, and comes back when someone follows it.
 * Claims keep a share for never-fetched feeds without letting them crowd out the rest.
 */
@WithEmbeddedCrawler
class CrawlForReadersTest {

    /** Short, so that feeds these tests claim are due again for whoever claims next. */
    private static final Duration LEASE = Duration.ofMillis(1);
    private static final int ALL = 10_000;

    @Autowired FeedResolver resolver;
    @Autowired CrawlStates states;
    @Autowired SourceHealth health;
    @Autowired Subscriptions subscriptions;
    @Autowired Sources sources;
    @Autowired JdbcClient jdbc;

    private final long reader = ThreadLocalRandom.current().nextLong(1_000_000, Long.MAX_VALUE / 2);

    @Test
    void aFeedNobodyReadsIsNotClaimedAndANewSubscriberMakesItDueAtOnce() {
        long feed = newFeed();

        assertThat(claimedIds()).doesNotContain(feed);
        CrawlState aside = states.find(feed).orElseThrow();
        assertThat(aside.nextFetchAt()).as("looked at again only when it may retire").isAfter(Instant.now().plus(Duration.ofDays(29)));
        assertThat(claimedIds()).doesNotContain(feed);

        subscriptions.subscribe(reader, feed, List.of());

        assertThat(states.find(feed).orElseThrow().nextFetchAt()).isBeforeOrEqualTo(Instant.now());
        assertThat(claimedIds()).contains(feed);
    }

    @Test
    void aFeedAttachedToAProfileIsRead() {
        long feed = newFeed();
        assertThat(claimedIds()).doesNotContain(feed);

        sources.attach(reader, feed);

        assertThat(claimedIds()).contains(feed);
    }

    @Test
    void aFeedUnreadForRetireAfterIsRetiredVisiblyUntilSomeoneSubscribes() {
        long feed = newFeed();
        subscriptions.subscribe(reader, feed, List.of());
        assertThat(claimedIds()).contains(feed);
        subscriptions.unsubscribe(reader, feed);
        makeDue(feed);
        assertThat(claimedIds()).as("its last reader left").doesNotContain(feed);

        // Idle for longer than the default 30 days, and due for its look.
        jdbc.sql("UPDATE crawl_state SET idle_since = UTC_TIMESTAMP(6) - INTERVAL 31 DAY, next_fetch_at = UTC_TIMESTAMP(6) "
                + "WHERE source_id = ?").param(feed).update();
        assertThat(claimedIds()).doesNotContain(feed);

        assertThat(states.find(feed).orElseThrow().status()).isEqualTo(CrawlStatusKind.RETIRED);
        assertThat(health.of(feed)).hasValueSatisfying(status -> {
            assertThat(status.status()).isEqualTo("retired");
            assertThat(status.nextFetchAt()).isNull();
        });
        assertThat(states.find(feed).orElseThrow().nextFetchAt()).isAfter(Instant.now().plus(Duration.ofDays(3650)));

        subscriptions.subscribe(reader + 1, feed, List.of());

        assertThat(states.find(feed).orElseThrow().status()).isEqualTo(CrawlStatusKind.OK);
        assertThat(claimedIds()).contains(feed);
    }

    @Test
    void neverFetchedFeedsTakeABoundedShareOfAClaimWhenOthersAreDue() {
        List<Long> fresh = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            fresh.add(readFeed());
        }
        List<Long> known = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            known.add(readFeed());
        }
        // The import's feeds were due first; the known ones (fetched before) became due after them.
        // Both long ago, so that no other test's due feed comes before these.
        for (int i = 0; i < fresh.size(); i++) {
            jdbc.sql("UPDATE crawl_state SET next_fetch_at = '2001-01-01' + INTERVAL ? SECOND WHERE source_id = ?")
                    .params(i, fresh.get(i)).update();
        }
        for (long feed : known) {
            jdbc.sql("UPDATE crawl_state SET fetch_count = 7, next_fetch_at = '2001-01-02' WHERE source_id = ?")
                    .param(feed).update();
        }

        List<Long> claimed = states.claimDue("test", 4, LEASE).stream().map(CrawlState::sourceId).toList();

        // new-share 0.25 of 4 slots: one new feed, the oldest, and the three known ones.
        assertThat(claimed).containsExactlyInAnyOrder(fresh.getFirst(), known.get(0), known.get(1), known.get(2));

        for (long feed : known) {
            jdbc.sql("UPDATE crawl_state SET next_fetch_at = UTC_TIMESTAMP(6) + INTERVAL 1 DAY WHERE source_id = ?").param(feed).update();
        }
        List<Long> next = states.claimDue("test", 4, LEASE).stream().map(CrawlState::sourceId).toList();
        assertThat(next).as("with nothing else due, new feeds fill the claim").containsExactlyElementsOf(fresh.subList(1, 5));
    }

    private long newFeed() {
        return resolver.register("https://feeds.example/" + UUID.randomUUID() + ".xml").id();
    }

    private long readFeed() {
        long feed = newFeed();
        subscriptions.subscribe(reader, feed, List.of());
        return feed;
    }

    private void makeDue(long feed) {
        jdbc.sql("UPDATE crawl_state SET next_fetch_at = UTC_TIMESTAMP(6) WHERE source_id = ?").param(feed).update();
    }

    private List<Long> claimedIds() {
        return states.claimDue("test", ALL, LEASE).stream().map(CrawlState::sourceId).toList();
    }
}

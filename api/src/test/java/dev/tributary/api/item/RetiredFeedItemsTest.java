package dev.tributary.api.item;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.retention.RetentionJob;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stars;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Writes;
import dev.tributary.storage.testing.Await;
import dev.tributary.storage.testing.LockWaits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The retired-feed-items job against the real database: what it purges, what it keeps, and a feed that comes back. */
@ApiTest
class RetiredFeedItemsTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired Stars stars;
    @Autowired Items items;
    @Autowired HomeFeed home;
    @Autowired JdbcClient jdbc;
    @Autowired Writes writes;
    @Autowired List<RetentionJob> jobs;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    @Test
    void purgesARetiredFeedsItemsInBoundedBatchesKeepingStarredAndCommentedOnes() {
        long feed = deliveries.feed();
        List<NewItem> entries = IntStream.range(0, 450).mapToObj(i -> entry(MediaType.TEXT)).toList();
        List<Long> ids = new ArrayList<>();
        for (int from = 0; from < entries.size(); from += 150) {
            ids.addAll(publisher.publish(feed, entries.subList(from, from + 150)).created());
        }
        TestUser reader = api.newUser("retired");
        TestUser starrer = api.newUser("keeper");
        deliveries.follow(reader, feed); // the newest entries land in the inbox, unread
        long starred = ids.get(10);
        long commented = ids.get(20);
        stars.star(starrer.numericId(), starred);
        jdbc.sql("INSERT INTO item_reactions (item_id, likes, comments) VALUES (?, 0, 1)").param(commented).update();
        subscriptions.unsubscribe(reader.numericId(), feed);
        retire(feed, 60);
        long otherFeed = deliveries.feed();
        long young = deliveries.publish(otherFeed, entry(MediaType.TEXT)).getFirst();
        retire(otherFeed, 31); // retired one day ago: within the grace

        List<Long> batches = new ArrayList<>();
        long swept = job().sweep(batches::add);

        assertThat(swept).isEqualTo(448);
        assertThat(batches).as("each batch one bounded transaction").allMatch(n -> n <= Items.MAX_PAGE).hasSizeGreaterThan(2);
        assertThat(batches.stream().mapToLong(Long::longValue).sum()).isEqualTo(swept);
        assertThat(items.ofSource(feed, null, null, Items.MAX_PAGE)).extracting(item -> item.id())
                .containsExactlyInAnyOrder(starred, commented);
        assertThat(items.find(young)).as("a feed within its grace").isPresent();
        assertThat(job().sweep(n -> { })).as("idempotent").isZero();

        // The reader's inbox entries of purged items are retracted with their unread counts.
        // Retraction is fan-out work: in the full suite it queues behind every other test's tasks.
        Await.until("the purged items' inbox rows are retracted", java.time.Duration.ofMinutes(3), () -> jdbc.sql(
                "SELECT COUNT(*) FROM inbox WHERE user_id = ? AND item_id NOT IN (?, ?)")
                .params(reader.numericId(), starred, commented).query(Long.class).single() == 0);
        long unreadRows = jdbc.sql("SELECT COUNT(*) FROM inbox WHERE user_id = ? AND is_read = FALSE")
                .param(reader.numericId()).query(Long.class).single();
        assertThat(home.unread(reader.numericId()).total()).isEqualTo(unreadRows);
    }

    @Test
    void aFeedThatComesBackDoesNotAnnounceItsPurgedEntriesAgain() {
        long feed = deliveries.feed();
        List<NewItem> entries = IntStream.range(0, 5).mapToObj(i -> entry(MediaType.TEXT)).toList();
        Set<Long> old = new HashSet<>(publisher.publish(feed, entries).created());
        retire(feed, 60);
        assertThat(job().sweep(n -> { })).isEqualTo(5);

        TestUser returning = api.newUser("returns");
        deliveries.follow(returning, feed);
        Await.until("a new reader wakes the feed", () -> jdbc.sql("SELECT status FROM crawl_state WHERE source_id = ?")
                .param(feed).query(String.class).single().equals("ok"));
        NewItem fresh = entry(MediaType.TEXT);
        List<NewItem> refetched = new ArrayList<>(entries);
        refetched.add(fresh);

        List<Long> created = publisher.publish(feed, refetched).created();

        assertThat(created).as("only the entry that is really new").hasSize(1);
        deliveries.awaitInTimeline(returning, created);
        assertThat(deliveries.timelineIds(returning)).doesNotContainAnyElementsOf(old).containsExactlyElementsOf(created);
        assertThat(job().sweep(n -> { })).as("a feed with a reader again is left alone").isZero();
    }

    @Test
    void aFollowedFeedWhoseWakeUpWasLostIsWokenNotPurged() {
        long feed = deliveries.feed();
        List<Long> ids = publisher.publish(feed, IntStream.range(0, 3).mapToObj(i -> entry(MediaType.TEXT)).toList()).created();
        retire(feed, 60);
        TestUser reader = api.newUser("lostwake");
        // The subscription committed, then the node died before its after-commit wake-up.
        jdbc.sql("INSERT INTO subscribers (source_id, user_id, media_mask) VALUES (?, ?, 0)").params(feed, reader.numericId()).update();

        assertThat(job().sweep(n -> { })).as("nothing purged of a followed feed").isZero();

        assertThat(items.ofSource(feed, null, null, Items.MAX_PAGE)).extracting(item -> item.id()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(jdbc.sql("SELECT status FROM crawl_state WHERE source_id = ?").param(feed).query(String.class).single())
                .as("woken: crawled again").isEqualTo("ok");

        long recent = deliveries.feed();
        retire(recent, 31); // within the grace: not a purge candidate yet
        jdbc.sql("INSERT INTO subscribers (source_id, user_id, media_mask) VALUES (?, ?, 0)").params(recent, reader.numericId()).update();
        job().sweep(n -> { });
        assertThat(jdbc.sql("SELECT status FROM crawl_state WHERE source_id = ?").param(recent).query(String.class).single())
                .as("a feed retired within the grace is woken too").isEqualTo("ok");
    }

    @Test
    void aCommentRacingThePurgeOfItsItemWaitsForItAndIsRefused() {
        long feed = deliveries.feed();
        long item = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();
        TestUser commenter = api.newUser("racer");
        CompletableFuture<ApiResponse> comment = new CompletableFuture<>();

        writes.run("a purge held open after its tombstone", () -> {
            assertThat(publisher.purge(List.of(item), ids -> Set.of())).containsExactly(item);
            // The comment's access check still sees the item: the tombstone is not committed.
            Thread.ofVirtual().start(() -> {
                try {
                    comment.complete(api.post("/api/v1/items/" + item + "/comments", commenter.token(), Map.of("text", "late")));
                } catch (Throwable e) {
                    comment.completeExceptionally(e);
                }
            });
            LockWaits lockWaits = LockWaits.seenBy(jdbc);
            Await.until("the comment waits on the item's lock, or is done", () -> comment.isDone() || lockWaits.holds());
        });

        assertThat(comment.join().status()).as(comment.join().toString()).isEqualTo(404);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM comments WHERE item_id = ?").param(item).query(Long.class).single())
                .as("no comment on a purged item").isZero();
    }

    /** Makes the feed's crawl state retired, idle these many days (retire-after is 30). */
    private void retire(long feed, int idleDays) {
        jdbc.sql("""
                INSERT INTO crawl_state (source_id, url, status, next_fetch_at, interval_s, created_at, idle_since)
                VALUES (?, 'https://feeds.example.test/retired', 'retired', '9999-12-31 00:00:00', 3600, UTC_TIMESTAMP(6),
                        UTC_TIMESTAMP(6) - INTERVAL ? DAY)
                """).params(feed, idleDays).update();
    }

    private RetentionJob job() {
        return jobs.stream().filter(job -> job.name().equals("retired-feed-items")).findFirst().orElseThrow();
    }
}

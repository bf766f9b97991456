package dev.tributary.pubsub.pull;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxScan;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithPullThreshold;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A source switches between push and pull while items keep arriving, fan-out runs, readers read
 * and mark, and items are tombstoned: at the end every steady follower holds every live item
 * exactly once (pushed or pulled, never both), and the unread counts are what the test's own
 * ledger of marks says.
 */
@WithPullThreshold
class ModeSwitchTest {

    private static final int ITEMS = 120;

    @Autowired Publisher publisher;
    @Autowired HomeFeed feed;
    @Autowired Subscriptions subscriptions;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired JdbcClient jdbc;

    @Test
    void switchingBothWaysUnderLoadLosesDoublesAndResurrectsNothing() throws Exception {
        long source = fixtures.feed();
        List<Long> steady = fixtures.people(2);
        fixtures.subscribe(source, steady);
        List<Long> churners = fixtures.people(2);
        List<Long> published = new ArrayList<>();
        Set<Long> tombstoned = ConcurrentHashMap.newKeySet();
        Set<Long> markedRead = ConcurrentHashMap.newKeySet();
        Set<Boolean> modesSeen = ConcurrentHashMap.newKeySet();
        AtomicBoolean publishing = new AtomicBoolean(true);
        long reader = steady.getFirst();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Future<?> publish = pool.submit(() -> {
                for (int i = 0; i < ITEMS; i++) {
                    long id = publisher.publish(source, List.of(entry("e" + i))).created().getFirst();
                    synchronized (published) {
                        published.add(id);
                    }
                    if (i % 10 == 9) {
                        long victim;
                        synchronized (published) {
                            victim = published.get(ThreadLocalRandom.current().nextInt(published.size()));
                        }
                        if (publisher.tombstone(victim)) {
                            tombstoned.add(victim);
                        }
                    }
                }
                publishing.set(false);
                return null;
            });
            Future<?> churn = pool.submit(() -> {
                // Three followers pull, two push: each round crosses the threshold both ways.
                while (publishing.get()) {
                    long churner = churners.get(ThreadLocalRandom.current().nextInt(churners.size()));
                    subscriptions.subscribe(churner, source, null);
                    modesSeen.add(mode(source));
                    subscriptions.unsubscribe(churner, source);
                    modesSeen.add(mode(source));
                }
                return null;
            });
            Future<?> deliver = pool.submit(() -> {
                while (publishing.get()) {
                    fanout.drain(Duration.ofSeconds(30));
                }
                return null;
            });
            Future<?> read = pool.submit(() -> {
                while (publishing.get()) {
                    List<TimelineEntry> page = feed.page(reader, TimelineQuery.newest(10));
                    feed.unread(reader);
                    if (!page.isEmpty()) {
                        long pick = page.get(ThreadLocalRandom.current().nextInt(page.size())).id();
                        if (feed.markRead(reader, pick)) {
                            markedRead.add(pick);
                        }
                    }
                }
                return null;
            });
            publish.get();
            churn.get();
            deliver.get();
            read.get();
        } finally {
            pool.shutdownNow();
        }
        fanout.drain();

        assertThat(modesSeen).as("the source was pulled and pushed while items arrived").containsExactlyInAnyOrder(true, false);
        long pulledCount = jdbc.sql("SELECT COUNT(*) FROM pulled_items WHERE source_id = ?").param(source).query(Long.class).single();
        assertThat(pulledCount).as("some items were pulled").isPositive();
        Set<Long> live = new HashSet<>(published);
        live.removeAll(tombstoned);
        for (long person : steady) {
            List<Long> ids = feed.ids(person, new InboxScan(InboxScan.Reads.ANY, Set.of(source), null, null, null, false, 1000));
            assertThat(ids).as("every live item once").doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(live);
            List<Long> paged = new ArrayList<>();
            TimelineQuery query = TimelineQuery.newest(17).withSource(source);
            for (List<TimelineEntry> page = feed.page(person, query); !page.isEmpty();
                    page = feed.page(person, query = query.olderThan(page.getLast().id()))) {
                page.forEach(entry -> paged.add(entry.id()));
            }
            assertThat(paged).as("the source's pages show each once").doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(live);
        }
        Set<Long> readLive = new HashSet<>(markedRead);
        readLive.retainAll(live);
        assertThat(feed.unread(reader).total()).isEqualTo(live.size() - readLive.size());
        assertThat(feed.unread(reader).bySource()).isEqualTo(Map.of(source, (long) (live.size() - readLive.size())));
        assertThat(feed.readAmong(reader, live)).isEqualTo(readLive);
        assertThat(feed.unread(steady.get(1)).total()).isEqualTo(live.size());
    }

    private boolean mode(long source) {
        return jdbc.sql("SELECT pulled FROM source_audiences WHERE source_id = ?").param(source).query(Boolean.class).single();
    }
}

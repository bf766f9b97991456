package dev.tributary.pubsub.inbox;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Unread counts stay exact: every scenario ends by comparing them with the inbox itself. */
@WithEmbeddedPubsub
class UnreadCountsTest {

    @Autowired Publisher publisher;
    @Autowired HomeFeed readState;
    @Autowired HomeFeed unread;
    @Autowired InboxTrimmer trimmer;
    @Autowired InboxTrimQueue queue;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired StringRedisTemplate redis;

    @Test
    void countsPerSourceAndMediaFollowMarkingReadAndUnread() {
        long news = fixtures.feed();
        long photos = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(news, List.of(reader));
        fixtures.subscribe(photos, List.of(reader));
        List<Long> texts = publisher.publish(news, List.of(entry("t1"), entry("t2"), entry("t3"))).created();
        List<Long> images = publisher.publish(photos, List.of(
                entry("i1", MediaType.IMAGE, Instant.parse("2026-11-01T00:00:00Z")))).created();
        fanout.drain();

        assertThat(unread.unread(reader)).isEqualTo(new Unread(4, Map.of(news, 3L, photos, 1L),
                Map.of(MediaType.TEXT, 3L, MediaType.IMAGE, 1L)));

        assertThat(readState.markRead(reader, texts.get(0))).isTrue();
        assertThat(readState.markRead(reader, texts.get(0))).as("already read").isFalse();
        assertThat(readState.markRead(reader, images.get(0))).isTrue();
        assertThat(unread.unread(reader)).isEqualTo(new Unread(2, Map.of(news, 2L), Map.of(MediaType.TEXT, 2L)));

        assertThat(readState.markUnread(reader, images.get(0))).isTrue();
        assertThat(readState.markUnread(reader, images.get(0))).as("already unread").isFalse();
        assertThat(unread.unread(reader)).isEqualTo(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(unread.unread(reader).total()).isEqualTo(3);

        assertThat(readState.markRead(reader, Long.MAX_VALUE)).as("not in the inbox").isFalse();
        assertThat(readState.markRead(fixtures.person(), texts.get(1))).as("another person's entry").isFalse();
        assertThat(unread.unread(reader).total()).isEqualTo(3);
    }

    @Test
    void markingUpToAnIdMarksExactlyThoseEntriesOptionallyOfOneSource() {
        long news = fixtures.feed();
        long blogs = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(news, List.of(reader));
        fixtures.subscribe(blogs, List.of(reader));
        List<Long> fromNews = publisher.publish(news, List.of(entry("n1"), entry("n2"))).created();
        List<Long> fromBlogs = publisher.publish(blogs, List.of(entry("b1"))).created();
        List<Long> later = publisher.publish(news, List.of(entry("n3"))).created();
        fanout.drain();

        assertThat(readState.markReadUpTo(reader, fromBlogs.getFirst(), news)).isEqualTo(2);
        assertThat(unread.unread(reader)).isEqualTo(new Unread(2, Map.of(news, 1L, blogs, 1L), Map.of(MediaType.TEXT, 2L)));
        assertThat(readState.markReadUpTo(reader, fromBlogs.getFirst(), null)).isEqualTo(1);
        assertThat(readState.markReadUpTo(reader, fromBlogs.getFirst(), null)).isZero();
        assertThat(unread.unread(reader)).isEqualTo(new Unread(1, Map.of(news, 1L), Map.of(MediaType.TEXT, 1L)));
        assertThat(later).hasSize(1);
        assertThat(fromNews).hasSize(2);
    }

    @Test
    void countsLostByRedisAreRebuiltExactlyFromTheInbox() {
        long feed = fixtures.feed();
        List<Long> readers = fixtures.people(5);
        fixtures.subscribe(feed, readers);
        List<Long> ids = publisher.publish(feed, List.of(entry("a"), entry("b"), entry("c"))).created();
        fanout.drain();
        readState.markRead(readers.getFirst(), ids.getFirst());
        Unread before = unread.unread(readers.getFirst());

        redis.execute((org.springframework.data.redis.core.RedisCallback<Object>) connection -> {
            connection.serverCommands().flushAll();
            return null;
        });

        assertThat(redis.hasKey(UnreadCounters.key(readers.getFirst()))).isFalse();
        assertThat(unread.unread(readers.getFirst())).isEqualTo(before).isEqualTo(fixtures.truth(readers.getFirst()));
        assertThat(redis.opsForHash().get(UnreadCounters.key(readers.getFirst()), "_b")).as("cached again").isEqualTo("1");
        // Deltas after the rebuild land on the rebuilt counts.
        readState.markRead(readers.getFirst(), ids.get(1));
        assertThat(unread.unread(readers.getFirst()).total()).isEqualTo(1);
        for (long reader : readers) {
            assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
        }
    }

    @Test
    void countsStayExactUnderConcurrentFanoutMarkingAndRebuilds() throws Exception {
        long feed = fixtures.feed();
        List<Long> readers = fixtures.people(12);
        fixtures.subscribe(feed, readers);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> running = new ArrayList<>();
            running.add(pool.submit(() -> {
                for (int i = 0; i < 15; i++) {
                    publisher.publish(feed, List.of(entry("c" + i)));
                    fanout.drain();
                }
            }));
            running.add(pool.submit(() -> fanout.drain()));
            for (int t = 0; t < 2; t++) {
                running.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < 150; i++) {
                        long reader = readers.get(random.nextInt(readers.size()));
                        List<Long> inbox = fixtures.inbox(reader);
                        if (inbox.isEmpty()) {
                            continue;
                        }
                        long item = inbox.get(random.nextInt(inbox.size()));
                        switch (random.nextInt(5)) {
                            case 0 -> readState.markUnread(reader, item);
                            case 1 -> readState.markReadUpTo(reader, item, null);
                            case 2 -> redis.delete(UnreadCounters.key(reader));
                            default -> readState.markRead(reader, item);
                        }
                        unread.unread(reader);
                    }
                }));
            }
            for (Future<?> future : running) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        fanout.drain();
        for (long reader : readers) {
            assertThat(fixtures.inbox(reader)).hasSize(15);
            assertThat(unread.unread(reader)).as("reader %d", reader).isEqualTo(fixtures.truth(reader));
        }
    }

    @Test
    void aTombstoneRemovesTheEntryFromEveryInboxAndItsUnreadCount() {
        long feed = fixtures.feed();
        List<Long> readers = fixtures.people(10);
        fixtures.subscribe(feed, readers);
        List<Long> ids = publisher.publish(feed, List.of(entry("keep"), entry("delete"))).created();
        fanout.drain();
        long gone = ids.get(1);
        readState.markRead(readers.getFirst(), gone);
        // One reader unsubscribed since: their copy must go too.
        new java.util.ArrayList<>(readers).subList(1, 2).forEach(r -> fixtures.unsubscribe(feed, r));

        publisher.tombstone(gone);
        fanout.drain();

        for (long reader : readers) {
            assertThat(fixtures.inbox(reader)).containsExactly(ids.getFirst());
            assertThat(unread.unread(reader)).isEqualTo(new Unread(1, Map.of(feed, 1L), Map.of(MediaType.TEXT, 1L)))
                    .isEqualTo(fixtures.truth(reader));
        }
    }

    @Test
    void trimmingTheInboxToTheWindowTakesExactlyTheTrimmedUnreadOff() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        List<NewItem> entries = new ArrayList<>();
        for (int i = 0; i < 45; i++) {
            entries.add(entry("w" + i, MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z").plusSeconds(i)));
        }
        List<Long> ids = publisher.publish(feed, entries).created();
        fanout.drain();
        readState.markRead(reader, ids.get(0));
        readState.markRead(reader, ids.get(40));
        assertThat(unread.unread(reader).total()).isEqualTo(43);

        assertThat(trimmer.trim(reader)).isEqualTo(15); // window of 30 in these tests
        assertThat(trimmer.trim(reader)).isZero();

        assertThat(fixtures.inbox(reader)).containsExactlyElementsOf(ids.subList(15, 45));
        assertThat(unread.unread(reader).total()).isEqualTo(29).isEqualTo(fixtures.truth(reader).total());
        redis.delete(UnreadCounters.key(reader));
        assertThat(unread.unread(reader).total()).isEqualTo(29);
    }

    @Test
    void fanoutQueuesItsRecipientsForTrimming() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        List<NewItem> entries = new ArrayList<>();
        for (int i = 0; i < 31; i++) {
            entries.add(entry("q" + i, MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z").plusSeconds(i)));
        }
        publisher.publish(feed, entries);
        fanout.drain();

        // Each pass takes a batch of queued people (other tests' readers may be queued too).
        for (int pass = 0; pass < 100 && queue.size() > 0; pass++) {
            trimmer.trimQueued();
        }
        assertThat(fixtures.inbox(reader)).hasSize(30);
        assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
    }
}

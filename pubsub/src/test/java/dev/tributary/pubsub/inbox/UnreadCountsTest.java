package dev.tributary.pubsub.inbox;

import static dev.tributary.pubsub.testing.Fixtures.entries;
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
import dev.tributary.storage.IdGenerator;
import java.time.Duration;
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
import org.springframework.jdbc.core.simple.JdbcClient;

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
    @Autowired JdbcClient jdbc;
    @Autowired InboxParts parts;
    @Autowired CountHorizon horizon;
    @Autowired UnreadCounters counters;
    @Autowired FanoutBacklog backlog;
    @Autowired dev.tributary.pubsub.Switches switches;
    @Autowired dev.tributary.storage.Transactions tx;
    @Autowired Inbox inbox;

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

    /**
     * Fan-out, marks, lost hashes and reads (which fold) race while the count horizon is raised
     * behind the publishes: batches of items above it move no counter, those at or below it do,
     * and reads count and fold the entries above each person's own horizon.
     */
    @Test
    void countsStayExactUnderConcurrentFanoutMarkingAndRebuilds() throws Exception {
        long feed = fixtures.feed();
        List<Long> readers = fixtures.people(12);
        fixtures.subscribe(feed, readers);
        int items = 40;
        java.util.concurrent.atomic.AtomicLong newest = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean published = new java.util.concurrent.atomic.AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            List<Future<?>> running = new ArrayList<>();
            running.add(pool.submit(() -> {
                for (int i = 0; i < items; i++) {
                    newest.set(publisher.publish(feed, List.of(entry("c" + i))).created().getFirst());
                    if (i % 2 == 0) {
                        fanout.drain();
                    }
                }
                fanout.drain();
                published.set(true);
            }));
            running.add(pool.submit(() -> fanout.drain()));
            running.add(pool.submit(() -> {
                // Up to the item before the newest: a batch of the newest may be running above it.
                for (int i = 0; i < 200 && !published.get(); i++) {
                    parts.raiseCountHorizonTo(newest.get() - 1);
                    unread.unread(readers.get(i % readers.size()));
                }
            }));
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
            assertThat(fixtures.inbox(reader)).hasSize(items);
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
            // The one who unsubscribed keeps the entry as read history (issue 45): nothing unread.
            Unread expected = reader == readers.get(1) ? new Unread(0, Map.of(), Map.of())
                    : new Unread(1, Map.of(feed, 1L), Map.of(MediaType.TEXT, 1L));
            assertThat(unread.unread(reader)).isEqualTo(expected).isEqualTo(fixtures.truth(reader));
        }
    }

    @Test
    void countsCoverTheWholeHorizonNotOnlyTheWindow() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        List<Long> ids = publisher.publish(feed, entries("h", 55)).created();
        fanout.drain();

        // Window of 30, horizon of 60 in these tests: all 55 are kept and counted.
        assertThat(trimmer.trim(reader)).isZero();
        assertThat(unread.unread(reader).total()).isEqualTo(55);
        assertThat(unread.unread(reader).bySource()).containsExactly(Map.entry(feed, 55L));
        assertThat(readState.markRead(reader, ids.getFirst())).as("an entry below the window").isTrue();
        assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(unread.unread(reader).total()).isEqualTo(54);
    }

    @Test
    void trimmingPastMaxEntriesTakesTheOldestReadEntriesFirstThenUnreadAndCountsThem() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        List<Long> ids = publisher.publish(feed, entries("w", 70)).created();
        fanout.drain();
        List<Long> read = List.of(ids.get(5), ids.get(6), ids.get(7), ids.get(8), ids.get(9), ids.get(50));
        read.forEach(id -> readState.markRead(reader, id));
        assertThat(unread.unread(reader).total()).isEqualTo(64);

        // 70 entries, at most 60: ten go, the six read ones first, then the four oldest unread.
        assertThat(trimmer.trim(reader)).isEqualTo(10);
        assertThat(trimmer.trim(reader)).isZero();

        List<Long> kept = new ArrayList<>(ids.subList(4, 70));
        kept.removeAll(read);
        assertThat(fixtures.inbox(reader)).containsExactlyElementsOf(kept);
        Unread after = unread.unread(reader);
        assertThat(after.total()).isEqualTo(60);
        assertThat(after.trimmedUnread()).isEqualTo(4);
        assertThat(after).isEqualTo(fixtures.truth(reader));
        redis.delete(UnreadCounters.key(reader));
        assertThat(unread.unread(reader)).as("rebuilt from MySQL").isEqualTo(after);
    }

    @Test
    void trimmingTakesEntriesOlderThanTheHorizonReadOrNot() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        long fresh = publisher.publish(feed, List.of(entry("fresh"))).created().getFirst();
        fanout.drain();
        // Two entries of items received 40 days ago (keep is 30d), one read: straight into the table.
        long old = IdGenerator.lowestIdAt(Instant.now().minus(Duration.ofDays(40)));
        jdbc.sql("INSERT INTO inbox (user_id, item_id, source_id, media, is_read) VALUES (?, ?, ?, 1, FALSE), (?, ?, ?, 1, TRUE)")
                .params(reader, old, feed, reader, old + 1, feed).update();
        redis.delete(UnreadCounters.key(reader));
        assertThat(unread.unread(reader).total()).isEqualTo(2);

        assertThat(trimmer.trim(reader)).isEqualTo(2);

        assertThat(fixtures.inbox(reader)).containsExactly(fresh);
        assertThat(unread.unread(reader)).isEqualTo(new Unread(1, Map.of(feed, 1L), Map.of(MediaType.TEXT, 1L), 1))
                .isEqualTo(fixtures.truth(reader));
    }

    @Test
    void markingAllReadGoesInBatchesAndCountsExactly() {
        long feed = fixtures.feed();
        long other = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        fixtures.subscribe(other, List.of(reader));
        List<Long> ids = new ArrayList<>();
        // More than one batch (ReadMarks.MARK_BATCH) of one source, delivered straight into the inbox.
        jdbc.sql("DELETE FROM inbox WHERE user_id = ?").param(reader).update();
        long first = publisher.publish(other, List.of(entry("o1"))).created().getFirst();
        fanout.drain();
        StringBuilder sql = new StringBuilder("INSERT INTO inbox (user_id, item_id, source_id, media, is_read) VALUES ");
        for (int i = 0; i < ReadMarks.MARK_BATCH + 500; i++) {
            long id = first + 1 + i;
            ids.add(id);
            sql.append(i == 0 ? "" : ", ").append('(').append(reader).append(", ").append(id).append(", ").append(feed).append(", 1, FALSE)");
        }
        jdbc.sql(sql.toString()).update();
        redis.delete(UnreadCounters.key(reader));
        assertThat(unread.unread(reader).total()).isEqualTo(ReadMarks.MARK_BATCH + 501);

        assertThat(readState.markReadUpTo(reader, ids.get(ReadMarks.MARK_BATCH + 200), feed)).isEqualTo(ReadMarks.MARK_BATCH + 201);
        assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(unread.unread(reader).total()).isEqualTo(300);
        assertThat(readState.markReadUpTo(reader, Long.MAX_VALUE, null)).isEqualTo(300);
        assertThat(unread.unread(reader).total()).isZero();
        assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
    }

    @Test
    void fanoutQueuesItsRecipientsForTrimming() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        List<NewItem> entries = new ArrayList<>();
        for (int i = 0; i < 61; i++) {
            entries.add(entry("q" + i, MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z").plusSeconds(i)));
        }
        publisher.publish(feed, entries);
        fanout.drain();

        // Each pass takes a batch of queued people (other tests' readers may be queued too).
        for (int pass = 0; pass < 100 && queue.size() > 0; pass++) {
            trimmer.trimQueued();
        }
        assertThat(fixtures.inbox(reader)).as("max-entries of 60 in these tests").hasSize(60);
        assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(unread.unread(reader).trimmedUnread()).isEqualTo(1);
    }

    @Test
    void entriesAboveAPersonsHorizonAreCountedFromTheInboxAndFoldedInOnceEnoughLieBelowTheGlobalOne() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        List<Long> first = publisher.publish(feed, java.util.stream.IntStream.range(0, 20).mapToObj(i -> entry("f" + i)).toList())
                .created();
        fanout.drain();
        assertThat(unread.unread(reader).total()).as("built below the new entries, counted from the inbox").isEqualTo(20);
        String key = UnreadCounters.key(reader);
        assertThat(Long.parseLong((String) redis.opsForHash().get(key, "_h"))).isLessThan(first.getFirst());

        long raised = parts.raiseCountHorizonTo(first.stream().mapToLong(Long::longValue).max().orElseThrow());
        // Straight from the counters: the inbox did not change, so the node's kept counts would answer.
        assertThat(counters.read(reader)).as("the read that folds").isEqualTo(fixtures.truth(reader));
        assertThat(redis.opsForHash().get(key, "_h")).as("folded up to the global horizon").isEqualTo(Long.toString(raised));
        assertThat(redis.opsForHash().get(key, "s" + feed + ":" + MediaType.TEXT.bit())).isEqualTo("20");

        // Below the horizon marks move the hash; above it they are counted from the inbox.
        readState.markRead(reader, first.getFirst());
        List<Long> later = publisher.publish(feed, List.of(entry("l1"), entry("l2"))).created();
        fanout.drain();
        readState.markRead(reader, later.getFirst());
        assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(unread.unread(reader).total()).isEqualTo(20);
        assertThat(redis.opsForHash().get(key, "s" + feed + ":" + MediaType.TEXT.bit())).isEqualTo("19");
    }

    @Test
    void aPersonWhoReadsEverythingHasTheirHorizonMovedOnSoReadsDoNotScanEverMore() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        List<Long> items = publisher.publish(feed, List.of(entry("r1"), entry("r2"), entry("r3"))).created();
        fanout.drain();
        assertThat(unread.unread(reader).total()).isEqualTo(3);
        readState.markReadUpTo(reader, items.stream().mapToLong(Long::longValue).max().orElseThrow(), null);

        long raised = parts.raiseCountHorizonTo(items.stream().mapToLong(Long::longValue).max().orElseThrow());
        assertThat(unread.unread(reader).total()).isZero();
        assertThat(redis.opsForHash().get(UnreadCounters.key(reader), "_h")).as("folded with nothing unread").isEqualTo(Long.toString(raised));
        assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
    }

    @Test
    void aHashWithNothingUnreadAboveItsHorizonAnswersAloneUntilTheInboxChanges() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        String key = UnreadCounters.key(reader);
        assertThat(unread.unread(reader).total()).isZero();
        Object marked = redis.opsForHash().get(key, "_s");
        assertThat(marked).as("marked with the inbox's version").isNotNull();

        // A delivery above the horizon moves no counter, but moves the version: the mark no longer answers.
        List<Long> items = publisher.publish(feed, List.of(entry("v1"), entry("v2"))).created();
        fanout.drain();
        assertThat(redis.opsForHash().get(key, "_h")).isNotNull();
        assertThat(Long.parseLong((String) redis.opsForHash().get(key, "_h"))).isLessThan(items.getFirst());
        assertThat(unread.unread(reader).total()).isEqualTo(2);
        assertThat(redis.opsForHash().get(key, "_s")).as("entries unread above: not marked again").isEqualTo(marked);

        // Marked read above the horizon: nothing unread above again, so marked again, and exact after.
        readState.markRead(reader, items.get(0));
        readState.markRead(reader, items.get(1));
        assertThat(unread.unread(reader).total()).isZero();
        assertThat(redis.opsForHash().get(key, "_s")).as("marked at the new version").isNotNull().isNotEqualTo(marked);
        readState.markUnread(reader, items.get(1));
        assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(unread.unread(reader).total()).isEqualTo(1);
    }

    @Test
    void withThePageCacheSwitchedOffNoHashIsMarkedToAnswerAlone() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        switches.set(dev.tributary.pubsub.Feature.PAGE_CACHE, false);
        try {
            assertThat(unread.unread(reader).total()).isZero();
            assertThat(redis.opsForHash().get(UnreadCounters.key(reader), "_b")).as("built").isNotNull();
            assertThat(redis.opsForHash().get(UnreadCounters.key(reader), "_s")).as("not marked").isNull();
        } finally {
            switches.set(dev.tributary.pubsub.Feature.PAGE_CACHE, true);
        }
    }

    @Test
    void aBatchOfAnItemAtOrBelowTheGlobalHorizonMovesTheCountersOfBuiltHashes() {
        long feed = fixtures.feed();
        List<Long> readers = fixtures.people(3);
        fixtures.subscribe(feed, readers);
        readers.forEach(reader -> assertThat(unread.unread(reader).total()).isZero());
        long item = publisher.publish(feed, List.of(entry("old"))).created().getFirst();
        long raised = parts.raiseCountHorizonTo(item);
        // Rebuilt now, their hashes count up to the item, which no batch has delivered yet.
        readers.forEach(reader -> redis.delete(UnreadCounters.key(reader)));
        readers.forEach(reader -> assertThat(counters.read(reader).total()).isZero());
        readers.forEach(reader -> assertThat(redis.opsForHash().get(UnreadCounters.key(reader), "_h")).isEqualTo(Long.toString(raised)));
        fanout.drain();

        for (long reader : readers) {
            assertThat(redis.opsForHash().get(UnreadCounters.key(reader), "s" + feed + ":" + MediaType.TEXT.bit()))
                    .as("moved by the batch, which read a horizon at the item").isEqualTo("1");
            assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
            assertThat(unread.unread(reader).total()).isEqualTo(1);
        }
    }

    @Test
    void aListenerGivenTwoCountedItemsInOneBatchHearsBoth() throws Exception {
        long reader = fixtures.person();
        long other = fixtures.person();
        long first = IdGenerator.lowestIdAt(Instant.now().minusSeconds(60)) + ThreadLocalRandom.current().nextInt(1_000_000);
        long second = first + 1;
        long raised = parts.raiseCountHorizonTo(second);
        for (long person : List.of(reader, other)) {
            redis.delete(UnreadCounters.key(person));
            assertThat(counters.read(person).total()).as("built up to the horizon, above both items").isZero();
        }
        assertThat(raised).isGreaterThanOrEqualTo(second);
        counters.listening(List.of(reader), Duration.ofMinutes(1));
        java.util.concurrent.BlockingQueue<String> heard = new java.util.concurrent.LinkedBlockingQueue<>();
        var listener = new org.springframework.data.redis.listener.RedisMessageListenerContainer();
        listener.setConnectionFactory(redis.getRequiredConnectionFactory());
        listener.addMessageListener((message, pattern) -> heard.add(new String(message.getBody())),
                new org.springframework.data.redis.listener.ChannelTopic(dev.tributary.pubsub.InboxEvent.channel(reader)));
        listener.afterPropertiesSet();
        listener.start();
        try {
            // One batch, two counted entries for the listener (and for someone else): the counters'
            // call carries each person's announcements once, however many of their entries it counts.
            tx.write("deliver", status -> inbox.deliverItems(List.of(
                    new InboxRow(reader, first, 1, MediaType.TEXT, false), new InboxRow(reader, second, 1, MediaType.TEXT, false),
                    new InboxRow(other, first, 1, MediaType.TEXT, false), new InboxRow(other, second, 1, MediaType.TEXT, false)),
                    status, false));

            List<String> messages = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                messages.add(heard.poll(10, java.util.concurrent.TimeUnit.SECONDS));
            }
            assertThat(messages).containsExactlyInAnyOrder("item " + first, "item " + second);
            assertThat(redis.opsForHash().get(UnreadCounters.key(reader), "s1:" + MediaType.TEXT.bit()))
                    .as("both counted in the hash").isEqualTo("2");
            assertThat(redis.opsForHash().get(UnreadCounters.key(other), "s1:" + MediaType.TEXT.bit())).isEqualTo("2");
        } finally {
            listener.stop();
            listener.destroy();
        }
    }

    @Test
    void theBacklogIsTheOldestItemWhoseFanoutIsPending() {
        long feed = fixtures.feed();
        fixtures.subscribe(feed, fixtures.people(2));
        fanout.drain();
        assertThat(backlog.oldestItem()).as("nothing pending").isEmpty();
        long item = publisher.publish(feed, List.of(entry("pending"))).created().getFirst();
        assertThat(backlog.oldestItem()).hasValue(item);
        fanout.drain();
        assertThat(backlog.oldestItem()).isEmpty();

    }

    @Test
    void raisingTheHorizonWaitsForEveryBatchThatReadIt() throws Exception {
        long target = IdGenerator.lowestIdAt(Instant.now());
        long raised = waitsForABatchThatReadTheHorizon(() -> parts.raiseCountHorizonTo(target), "SET item_id = GREATEST");
        assertThat(raised).isGreaterThanOrEqualTo(target);
        assertThat(horizon.known()).isGreaterThanOrEqualTo(target);
    }

    @Test
    void theBarrierOfAPromotionWaitsForEveryBatchThatReadTheHorizon() throws Exception {
        waitsForABatchThatReadTheHorizon(() -> {
            horizon.barrier();
            return 0L;
        }, "SET item_id = item_id");
    }

    /**
     * Runs {@code action} while a batch holds the horizon's shared lock, and checks that it waits
     * (InnoDB shows its {@code UPDATE count_horizon <statement>} waiting) until the batch commits;
     * what it returned.
     */
    private long waitsForABatchThatReadTheHorizon(java.util.concurrent.Callable<Long> action, String statement) throws Exception {
        java.util.concurrent.CountDownLatch read = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch commit = new java.util.concurrent.CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Long> batch = pool.submit(() -> tx.write("a batch that read the horizon", () -> {
                long seen = horizon.forBatch();
                read.countDown();
                await(commit);
                return seen;
            }));
            read.await();
            Future<Long> waiting = pool.submit(action);
            // Bounded: until InnoDB shows the statement waiting for the batch's shared lock.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (waiting(statement) == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(waiting(statement)).as("it waits for the lock").isPositive();
            assertThat(waiting.isDone()).isFalse();
            commit.countDown();
            batch.get();
            return waiting.get();
        } finally {
            commit.countDown();
            pool.shutdownNow();
        }
    }

    /** Statements on the horizon's row under way (each is instant unless it waits for the row's lock). */
    private int waiting(String statement) {
        return jdbc.sql("SELECT COUNT(*) FROM information_schema.processlist WHERE command = 'Query' "
                + "AND info LIKE ? AND info NOT LIKE '%processlist%'").param("%UPDATE count_horizon " + statement + "%")
                .query(Integer.class).single();
    }

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

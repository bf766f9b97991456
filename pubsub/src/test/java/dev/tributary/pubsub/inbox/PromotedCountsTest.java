package dev.tributary.pubsub.inbox;

import static dev.tributary.pubsub.testing.Fixtures.entries;
import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.TimelineSettings;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A person whose reads count many entries above the global horizon is promoted: fan-out moves
 * their counters whatever the item, and their reads count nothing from the inbox, for as long as
 * the promotion holds. Every scenario ends by comparing the counts with the inbox.
 */
@WithEmbeddedPubsub
class PromotedCountsTest {

    @Autowired Publisher publisher;
    @Autowired HomeFeed home;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired StringRedisTemplate redis;
    @Autowired UnreadCounters counters;
    @Autowired Transactions tx;
    @Autowired Inbox inbox;
    @Autowired TimelineSettings settings;

    /**
     * A feed with {@code reader} (whose counters are built) and {@code bystander} subscribed, and
     * enough entries above the global horizon to promote a reader at their next read.
     */
    private long promotable(long reader, long bystander) {
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(reader, bystander));
        assertThat(counters.read(reader).total()).as("built, up to the global horizon").isZero();
        publisher.publish(feed, entries("p", settings.countPromoteAt()));
        fanout.drain();
        return feed;
    }

    /** The person's counts, read as a client reads them, once the promotion that read may have asked for is made. */
    private dev.tributary.pubsub.Unread read(long person) {
        dev.tributary.pubsub.Unread counts = counters.read(person);
        assertThat(counters.promotionsSettled(Duration.ofSeconds(30))).isTrue();
        return counts;
    }

    private String field(long feed) {
        return "s" + feed + ":" + MediaType.TEXT.bit();
    }

    private Object counted(long person, long feed) {
        return redis.opsForHash().get(UnreadCounters.key(person), field(feed));
    }

    private Double promotion(long person) {
        return redis.opsForZSet().score(UnreadCounters.promotedKey(person), Long.toString(person));
    }

    @Test
    void aReaderOfManyEntriesAboveTheHorizonIsPromotedAndFanOutCountsForThemFromThenOn() {
        long reader = fixtures.person();
        long bystander = fixtures.person();
        long feed = promotable(reader, bystander);
        int many = settings.countPromoteAt();

        assertThat(read(reader)).as("the read that promotes").isEqualTo(fixtures.truth(reader));
        assertThat(redis.opsForHash().get(UnreadCounters.key(reader), "_h")).isEqualTo(UnreadCounters.PROMOTED);
        assertThat(promotion(reader)).isNotNull();
        assertThat(counted(reader, feed)).as("every entry counted into the hash").isEqualTo(Integer.toString(many));

        List<Long> later = publisher.publish(feed, entries("q", 3)).created();
        fanout.drain();
        assertThat(counted(reader, feed)).as("moved by the batches of items above the global horizon")
                .isEqualTo(Integer.toString(many + 3));
        assertThat(counted(bystander, feed)).as("nobody read them: no hash to move").isNull();
        home.markRead(reader, later.getFirst());
        assertThat(counted(reader, feed)).isEqualTo(Integer.toString(many + 2));
        assertThat(home.unread(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(home.unread(reader).total()).isEqualTo(many + 2);
        assertThat(home.unread(bystander)).isEqualTo(fixtures.truth(bystander));
    }

    @Test
    void aPromotionThatLapsedIsNotTrustedAndTheCountsAreRebuilt() {
        long reader = fixtures.person();
        long feed = promotable(reader, fixtures.person());
        assertThat(read(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(promotion(reader)).isNotNull();

        // As ten minutes without a read would: batches from now on pass the person by.
        redis.opsForZSet().add(UnreadCounters.promotedKey(reader), Long.toString(reader), 1);
        publisher.publish(feed, entries("late", 2));
        fanout.drain();
        assertThat(counted(reader, feed)).as("not moved: the promotion lapsed").isEqualTo(Integer.toString(settings.countPromoteAt()));

        assertThat(counters.read(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(redis.opsForHash().get(UnreadCounters.key(reader), "_h")).as("rebuilt up to the global horizon")
                .isNotEqualTo(UnreadCounters.PROMOTED);
        assertThat(read(reader).total()).as("and promoted again by the next read").isEqualTo(settings.countPromoteAt() + 2);
        assertThat(redis.opsForHash().get(UnreadCounters.key(reader), "_h")).isEqualTo(UnreadCounters.PROMOTED);
        assertThat(counters.read(reader)).isEqualTo(fixtures.truth(reader));
    }

    @Test
    void aHashOfAnEarlierPromotionThanTheBucketHoldsIsNotTrusted() {
        long reader = fixtures.person();
        long feed = promotable(reader, fixtures.person());
        assertThat(read(reader)).isEqualTo(fixtures.truth(reader));

        // The promotion lapsed, batches passed the person by, and a read of an older copy of the
        // hash promoted them again: the hash is not the one that promotion counted into.
        redis.opsForZSet().add(UnreadCounters.promotedKey(reader), Long.toString(reader), 1);
        publisher.publish(feed, entries("missed", 1));
        fanout.drain();
        redis.opsForZSet().add(UnreadCounters.promotedKey(reader), Long.toString(reader), System.currentTimeMillis() + 600_000.0);

        assertThat(counters.read(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(counters.read(reader).total()).isEqualTo(settings.countPromoteAt() + 1);
    }

    @Test
    void aPromotedReaderIsRenewedByTheirReadsOnceHalfTheirPromotionIsGone() {
        long reader = fixtures.person();
        promotable(reader, fixtures.person());
        assertThat(read(reader)).isEqualTo(fixtures.truth(reader));
        double soon = System.currentTimeMillis() + 1_000.0;
        // Nearly lapsed (the hash's copy of the mark moves with the set's, as a renewal writes both).
        redis.opsForZSet().add(UnreadCounters.promotedKey(reader), Long.toString(reader), soon);
        redis.opsForHash().put(UnreadCounters.key(reader), "_c", String.format("%.0f", soon));

        assertThat(counters.read(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(promotion(reader)).as("renewed for another promotion's length")
                .isGreaterThan(soon + settings.countPromotedFor().toMillis() / 2.0);
        assertThat(redis.opsForHash().get(UnreadCounters.key(reader), "_h")).isEqualTo(UnreadCounters.PROMOTED);
    }

    @Test
    void aBatchThatMovedAPromotedPersonAndRolledBackInvalidatesThem() {
        long reader = fixtures.person();
        long feed = promotable(reader, fixtures.person());
        assertThat(read(reader)).isEqualTo(fixtures.truth(reader));
        long item = IdGenerator.lowestIdAt(Instant.now()) + ThreadLocalRandom.current().nextInt(1_000_000);

        tx.write("a batch that fails", status -> {
            inbox.deliverItems(List.of(new InboxRow(reader, item, feed, MediaType.TEXT, false)), status, false);
            status.setRollbackOnly();
            return null;
        });

        assertThat(redis.opsForHash().get(UnreadCounters.key(reader), "_b")).as("invalidated").isNull();
        assertThat(counters.read(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(counters.read(reader).total()).isEqualTo(settings.countPromoteAt());
    }

    /**
     * Fan-out, reads (which promote), marks, lost hashes and lapsed promotions race while the
     * global horizon stays behind every item: whatever interleaving, the counts end exact.
     */
    @Test
    void countsStayExactWhilePromotionsRaceFanOutMarksAndLapses() throws Exception {
        long feed = fixtures.feed();
        List<Long> readers = fixtures.people(12);
        fixtures.subscribe(feed, readers);
        readers.forEach(reader -> assertThat(counters.read(reader).total()).isZero());
        int items = 40;
        java.util.concurrent.atomic.AtomicInteger promotedReads = new java.util.concurrent.atomic.AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            List<Future<?>> running = new ArrayList<>();
            running.add(pool.submit(() -> {
                for (int i = 0; i < items; i++) {
                    publisher.publish(feed, List.of(entry("r" + i)));
                    if (i % 2 == 0) {
                        fanout.drain();
                    }
                }
                fanout.drain();
            }));
            running.add(pool.submit(() -> fanout.drain()));
            for (int t = 0; t < 3; t++) {
                running.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < 120; i++) {
                        long reader = readers.get(random.nextInt(readers.size()));
                        List<Long> inbox = fixtures.inbox(reader);
                        long item = inbox.isEmpty() ? 0 : inbox.get(random.nextInt(inbox.size()));
                        switch (random.nextInt(8)) {
                            case 0 -> redis.opsForZSet().add(UnreadCounters.promotedKey(reader), Long.toString(reader), 1);
                            case 1 -> redis.delete(UnreadCounters.key(reader));
                            case 2 -> {
                                if (item != 0) {
                                    home.markUnread(reader, item);
                                }
                            }
                            case 3 -> {
                                if (item != 0) {
                                    home.markRead(reader, item);
                                }
                            }
                            default -> {
                            }
                        }
                        counters.read(reader);
                        if (UnreadCounters.PROMOTED.equals(redis.opsForHash().get(UnreadCounters.key(reader), "_h"))) {
                            promotedReads.incrementAndGet();
                        }
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
        assertThat(counters.promotionsSettled(Duration.ofSeconds(30))).isTrue();
        assertThat(readers.stream().filter(reader -> promotion(reader) != null)).as("reads promoted readers").isNotEmpty();
        assertThat(promotedReads.get()).as("reads found promoted hashes").isPositive();
        for (long reader : readers) {
            assertThat(fixtures.inbox(reader)).hasSize(items);
            assertThat(counters.read(reader)).as("reader %d", reader).isEqualTo(fixtures.truth(reader));
            assertThat(home.unread(reader)).as("reader %d", reader).isEqualTo(fixtures.truth(reader));
        }
    }
}

package dev.tributary.pubsub.inbox;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Switches;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A node keeps each person's counts as their counter hash gave them, under the epoch and their
 * inbox stamp read before it: the hash is not read again while neither moves (a change written
 * to it behind the node's back stays unseen), and every real change to the counts, each of which
 * moves the stamp, is seen at the next read.
 */
@WithEmbeddedPubsub
class KeptUnreadTest {

    @Autowired Publisher publisher;
    @Autowired HomeFeed feed;
    @Autowired Subscriptions subscriptions;
    @Autowired InboxTrimmer trimmer;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired StringRedisTemplate redis;
    @Autowired Switches switches;
    @Autowired KeptUnread kept;

    private List<Long> publish(long source, MediaType type, int count) {
        List<NewItem> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(entry("k" + System.nanoTime() + "-" + i, type, Instant.now()));
        }
        List<Long> ids = publisher.publish(source, items).created();
        fanout.drain();
        return ids;
    }

    /** A change to the person's hash that no writer made: it moves no stamp. */
    private void behindTheNodesBack(long person, long source, int change) {
        redis.opsForHash().increment(UnreadCounters.key(person), "s" + source + ":" + MediaType.TEXT.bit(), change);
    }

    private void assertTruth(long person) {
        assertThat(feed.unread(person)).isEqualTo(fixtures.truth(person));
    }

    @Test
    void countsKeptTogetherLapseAtTimesOfTheirOwn() {
        Unread none = new Unread(0, Map.of(), Map.of());
        Set<Duration> lifetimes = new HashSet<>();
        for (long person = 9_100_001; person <= 9_100_050; person++) {
            kept.keep(person, "epoch", "stamp", none);
            Duration left = kept.remaining(person);
            assertThat(left).as("a first keeping lives a quarter to all of ten minutes")
                    .isBetween(Duration.ofSeconds(140), Duration.ofMinutes(10));
            lifetimes.add(left.truncatedTo(ChronoUnit.SECONDS));
        }
        assertThat(lifetimes).as("fifty people kept in the same moment").hasSizeGreaterThan(40);

        kept.keep(9_100_001, "epoch", "moved", none);
        assertThat(kept.remaining(9_100_001)).as("renewed after a change: three quarters to all of it")
                .isBetween(Duration.ofSeconds(440), Duration.ofMinutes(10));
    }

    @Test
    void theHashIsReadOnceAndAgainAfterEveryChangeToTheCounts() {
        long news = fixtures.feed();
        long photos = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(news, List.of(reader));
        fixtures.subscribe(photos, List.of(reader));
        List<Long> texts = publish(news, MediaType.TEXT, 3);
        publish(photos, MediaType.IMAGE, 1);
        feed.stamps(reader, List.of()); // draws the person's stamp, as their first page does
        Unread first = feed.unread(reader);
        assertThat(first).isEqualTo(fixtures.truth(reader));

        behindTheNodesBack(reader, news, 5);
        assertThat(feed.unread(reader)).as("kept: the hash was not read again").isEqualTo(first);
        behindTheNodesBack(reader, news, -5);

        feed.markRead(reader, texts.getFirst());
        assertTruth(reader);
        feed.markUnread(reader, texts.getFirst());
        assertTruth(reader);
        feed.markReadUpTo(reader, texts.get(1), news);
        assertTruth(reader);
        publish(news, MediaType.LINK, 2);
        assertTruth(reader);
        publish(news, MediaType.TEXT, 70); // past the test inbox's 60 entries: trimming takes unread ones too
        trimmer.trim(reader);
        assertThat(feed.unread(reader).trimmedUnread()).isPositive();
        assertTruth(reader);
        subscriptions.unsubscribe(reader, photos);
        assertTruth(reader);
        assertThat(feed.unread(reader).bySource()).doesNotContainKey(photos);
    }

    @Test
    void aNewEpochOrTheSwitchOffReadsTheHashAgain() {
        long news = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(news, List.of(reader));
        publish(news, MediaType.TEXT, 2);
        feed.stamps(reader, List.of());
        Unread first = feed.unread(reader);
        assertThat(feed.unread(reader)).isEqualTo(first);

        behindTheNodesBack(reader, news, 1);
        redis.delete(PageStamps.epochKey()); // as after a stamp move that failed
        assertThat(feed.unread(reader).total()).as("a new epoch voids what was kept").isEqualTo(first.total() + 1);

        feed.stamps(reader, List.of());
        feed.unread(reader);
        behindTheNodesBack(reader, news, 1);
        switches.set(Feature.PAGE_CACHE, false);
        try {
            assertThat(feed.unread(reader).total()).as("switched off: nothing kept").isEqualTo(first.total() + 2);
        } finally {
            switches.set(Feature.PAGE_CACHE, true);
        }
    }
}

package dev.tributary.pubsub.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.inbox.InboxParts;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Issue 19: a story that reaches a person through several feeds is one entry, counted once, exactly, under races. */
@WithEmbeddedPubsub
class OneStoryOnceTest {

    private static final Instant PUBLISHED = Instant.parse("2026-11-01T00:00:00Z");

    @Autowired Publisher publisher;
    @Autowired Sources sources;
    @Autowired HomeFeed home;
    @Autowired Items items;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired InboxParts parts;
    @Autowired JdbcClient jdbc;
    @Autowired StringRedisTemplate redis;

    private static NewItem story(String guid, String url) {
        return new NewItem(guid, "title " + guid, "<p>summary</p>", url, "someone", MediaType.TEXT, List.of(), List.of(), PUBLISHED);
    }

    private long publish(long feed, NewItem entry) {
        return publisher.publish(feed, List.of(entry)).created().getFirst();
    }

    private List<Long> copies(long person) {
        return jdbc.sql("SELECT item_id FROM inbox_also WHERE user_id = ? ORDER BY item_id").param(person).query(Long.class).list();
    }

    /** The counters as the person reads them, checked against the inbox and against a rebuild from it. */
    private Unread exactUnread(long person) {
        Unread counted = home.unread(person);
        assertThat(counted).as("counters = the inbox").isEqualTo(fixtures.truth(person));
        redis.delete(InboxParts.counterKey(person));
        assertThat(home.unread(person)).as("rebuilt").isEqualTo(counted);
        return counted;
    }

    @Test
    void theSameStoryFromThreeFeedsIsOneEntryCountedOnceWithTheOtherFeedsAsAlsoIn() {
        long english = fixtures.feed();
        long java = fixtures.feed();
        long web = fixtures.feed();
        long reader = fixtures.person();
        List.of(english, java, web).forEach(feed -> fixtures.subscribe(feed, List.of(reader)));
        home.unread(reader);

        long lead = publish(english, story("e-1", "https://blog.test/2026/post/"));
        fanout.drain();
        long second = publish(java, story("j-1", "http://BLOG.test:80/2026/post?utm_source=rss&utm_medium=feed#comments"));
        long third = publish(web, story("https://blog.test/2026/post", null));
        fanout.drain();

        assertThat(fixtures.inbox(reader)).containsExactly(lead);
        assertThat(copies(reader)).containsExactly(second, third);
        assertThat(exactUnread(reader)).isEqualTo(new Unread(1, Map.of(english, 1L), Map.of(MediaType.TEXT, 1L)));
        assertThat(home.alsoIn(reader, List.of(lead))).isEqualTo(Map.of(lead, List.of(java, web)));
        // Each feed's own page still has its item.
        assertThat(items.ofSource(java, null, null, 10)).extracting(Stored::id).containsExactly(second);
        assertThat(items.ofSource(web, null, null, 10)).extracting(Stored::id).containsExactly(third);
    }

    @Test
    void differentPagesOfOneSiteAndPostsOfPeopleAreNotCollapsed() {
        long feed = fixtures.feed();
        long other = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        fixtures.subscribe(other, List.of(reader));
        long alice = fixtures.person();
        long bob = fixtures.person();
        long aliceSource = sources.ofUser(alice).id();
        long bobSource = sources.ofUser(bob).id();
        fixtures.subscribe(aliceSource, List.of(reader));
        fixtures.subscribe(bobSource, List.of(reader));

        long one = publish(feed, story("a", "https://blog.test/post?id=1"));
        long two = publish(other, story("b", "https://blog.test/post?id=2"));
        long alicePost = publish(aliceSource, story("p-1", "https://news.test/big-story"));
        long bobPost = publish(bobSource, story("p-2", "https://news.test/big-story"));
        fanout.drain();

        assertThat(fixtures.inbox(reader)).containsExactly(one, two, alicePost, bobPost);
        assertThat(copies(reader)).isEmpty();
        assertThat(exactUnread(reader).total()).isEqualTo(4);
    }

    @Test
    void twoFeedsDeliveringTheSameStoryAtOnceOnTwoWorkersGiveEachPersonOneEntry() throws Exception {
        try (ExecutorService twoWorkers = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 3; round++) {
                deliverAtOnce(round, twoWorkers);
            }
        }
    }

    private void deliverAtOnce(int round, ExecutorService twoWorkers) throws Exception {
        long first = fixtures.feed();
        long second = fixtures.feed();
        List<Long> people = fixtures.people(40);
        fixtures.subscribe(first, people);
        fixtures.subscribe(second, people);
        people.forEach(home::unread);
        String url = "https://race.test/story-" + round;
        long a = publish(first, story("a-" + round, url));
        long b = publish(second, story("b-" + round, url + "/"));
        List<FanoutTask> claimed = fanout.claim(10);
        assertThat(claimed).extracting(FanoutTask::itemId).containsExactlyInAnyOrder(a, b);

        CyclicBarrier start = new CyclicBarrier(2);
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (FanoutTask task : claimed) {
            workers.add(CompletableFuture.runAsync(() -> {
                try {
                    start.await(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                fanout.run(task, () -> true);
            }, twoWorkers));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        fanout.drain();

        for (long person : people) {
            List<Long> entry = fixtures.inbox(person);
            assertThat(entry).as("person %d, round %d", person, round).hasSize(1).isSubsetOf(a, b);
            assertThat(copies(person)).containsExactly(entry.getFirst() == a ? b : a);
            assertThat(home.unread(person).total()).isEqualTo(1);
            assertThat(home.unread(person)).isEqualTo(fixtures.truth(person));
        }
    }

    @Test
    void markingACopyReadOrUnreadMarksThePersonsOneEntry() {
        long first = fixtures.feed();
        long second = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(first, List.of(reader));
        fixtures.subscribe(second, List.of(reader));
        long lead = publish(first, story("x", "https://marks.test/x"));
        long copy = publish(second, story("y", "https://marks.test/x"));
        fanout.drain();

        assertThat(home.markRead(reader, copy)).isTrue();
        assertThat(home.readStates(reader, List.of(lead, copy))).isEqualTo(Map.of(lead, true, copy, true));
        assertThat(exactUnread(reader).total()).isZero();
        assertThat(home.markUnread(reader, List.of(copy))).isEqualTo(1);
        assertThat(exactUnread(reader).total()).isEqualTo(1);
        // "Mark all of the second feed read" takes the story with it, though its entry came through the first.
        assertThat(home.markReadUpTo(reader, Long.MAX_VALUE, second)).isEqualTo(1);
        assertThat(home.readAmong(reader, List.of(lead, copy))).containsExactlyInAnyOrder(lead, copy);
        assertThat(exactUnread(reader).total()).isZero();
    }

    @Test
    void whenTheEntrysItemIsTombstonedTheOldestCopyTakesOverWithItsReadFlagAndOneCount() {
        long first = fixtures.feed();
        long second = fixtures.feed();
        long third = fixtures.feed();
        long unreadReader = fixtures.person();
        long readReader = fixtures.person();
        List.of(first, second, third).forEach(feed -> fixtures.subscribe(feed, List.of(unreadReader, readReader)));
        long lead = publish(first, story("l", "https://tomb.test/story"));
        long heir = publish(second, story("h", "https://tomb.test/story"));
        long last = publish(third, story("t", "https://tomb.test/story"));
        fanout.drain();
        home.markRead(readReader, lead);
        home.unread(unreadReader);
        home.unread(readReader);

        assertThat(publisher.tombstone(lead)).isTrue();
        fanout.drain();

        assertThat(fixtures.inbox(unreadReader)).containsExactly(heir);
        assertThat(copies(unreadReader)).containsExactly(last);
        assertThat(home.alsoIn(unreadReader, List.of(heir))).isEqualTo(Map.of(heir, List.of(third)));
        assertThat(exactUnread(unreadReader)).isEqualTo(new Unread(1, Map.of(second, 1L), Map.of(MediaType.TEXT, 1L)));
        assertThat(fixtures.inbox(readReader)).containsExactly(heir);
        assertThat(home.readStates(readReader, List.of(heir, last))).isEqualTo(Map.of(heir, true, last, true));
        assertThat(exactUnread(readReader).total()).isZero();

        // A copy tombstoned leaves also_in; the entry and its count stay.
        assertThat(publisher.tombstone(last)).isTrue();
        fanout.drain();
        assertThat(fixtures.inbox(unreadReader)).containsExactly(heir);
        assertThat(copies(unreadReader)).isEmpty();
        assertThat(home.alsoIn(unreadReader, List.of(heir))).isEmpty();
        assertThat(exactUnread(unreadReader).total()).isEqualTo(1);

        // The last one tombstoned: the story is gone.
        assertThat(publisher.tombstone(heir)).isTrue();
        fanout.drain();
        assertThat(fixtures.inbox(unreadReader)).isEmpty();
        assertThat(exactUnread(unreadReader).total()).isZero();
    }

    @Test
    void aCopyUpdatedLaterStaysACopyAndTheCountStays() {
        long first = fixtures.feed();
        long second = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(first, List.of(reader));
        fixtures.subscribe(second, List.of(reader));
        long lead = publish(first, story("u1", "https://update.test/s"));
        long copy = publish(second, story("u2", "https://update.test/s"));
        fanout.drain();

        NewItem retitled = new NewItem("u2", "a new title", "<p>summary</p>", "https://update.test/moved", "someone",
                MediaType.TEXT, List.of(), List.of(), PUBLISHED);
        assertThat(publisher.publish(second, List.of(retitled)).updated()).containsExactly(copy);
        fanout.drain();

        assertThat(fixtures.inbox(reader)).containsExactly(lead);
        assertThat(copies(reader)).containsExactly(copy);
        assertThat(items.find(copy).orElseThrow().body().title()).isEqualTo("a new title");
        assertThat(exactUnread(reader).total()).isEqualTo(1);
    }

    @Test
    void unsubscribingFromTheEntrysFeedKeepsTheEntryAsHistoryReadAsEveryPushedEntryStays() {
        long first = fixtures.feed();
        long second = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(first, List.of(reader));
        fixtures.subscribe(second, List.of(reader));
        long lead = publish(first, story("s1", "https://unsub.test/s"));
        long copy = publish(second, story("s2", "https://unsub.test/s"));
        fanout.drain();

        fixtures.unsubscribe(first, reader);
        fixtures.unsubscribe(second, reader);

        assertThat(fixtures.inbox(reader)).containsExactly(lead);
        assertThat(copies(reader)).containsExactly(copy);
        // Unsubscribing takes a feed's entries out of the unread horizon (issue 45): history, not unread.
        assertThat(exactUnread(reader)).isEqualTo(new Unread(0, Map.of(), Map.of()));
        // Following again back-fills the feed's items: its copy stays a copy, and the story stays read.
        fixtures.subscribe(second, List.of(reader));
        assertThat(fixtures.inbox(reader)).containsExactly(lead);
        assertThat(exactUnread(reader).total()).isZero();
    }

    @Test
    void aNewSubscriptionsBackFillOfAStoryHeldAlreadyAddsACopyNotAnEntry() {
        long first = fixtures.feed();
        long second = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(first, List.of(reader));
        long lead = publish(first, story("b1", "https://backfill.test/s"));
        long copy = publish(second, story("b2", "https://backfill.test/s"));
        fanout.drain();

        fixtures.subscribe(second, List.of(reader));

        assertThat(fixtures.inbox(reader)).containsExactly(lead);
        assertThat(copies(reader)).containsExactly(copy);
        assertThat(exactUnread(reader).total()).isEqualTo(1);
    }

    @Test
    void trimmingAnEntryTakesItsCopiesWithIt() {
        long first = fixtures.feed();
        long second = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(first, List.of(reader));
        fixtures.subscribe(second, List.of(reader));
        long lead = publish(first, story("t1", "https://trim.test/s"));
        publish(second, story("t2", "https://trim.test/s"));
        fanout.drain();
        List<NewItem> filler = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            filler.add(new NewItem("f" + i, "f", null, "https://trim.test/f" + i, null, MediaType.TEXT, List.of(), List.of(),
                    PUBLISHED.plusSeconds(i + 1)));
        }
        publisher.publish(first, filler);
        fanout.drain();
        home.unread(reader);

        // 61 entries, at most 60: the oldest, the story's, goes, and its copy with it.
        assertThat(parts.trim(reader)).isEqualTo(1);
        assertThat(fixtures.inbox(reader)).hasSize(60).doesNotContain(lead);
        assertThat(copies(reader)).isEmpty();
        assertThat(exactUnread(reader).total()).isEqualTo(60);
    }
}

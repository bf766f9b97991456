package dev.tributary.pubsub.pull;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxScan;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.TimelineStamps;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithPullThreshold;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A pulled source cannot be told from a pushed one: two twin readers follow the same two feeds'
 * twins, one reader's big feed pulled (three followers, the threshold) and the other's pushed,
 * and every page, filter, cursor, count and mark gives the same titles and numbers in both.
 */
@WithPullThreshold
class PulledFeedTest {

    @Autowired Publisher publisher;
    @Autowired HomeFeed feed;
    @Autowired Subscriptions subscriptions;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired JdbcClient jdbc;

    /** One reader's world: a big feed (pulled or pushed) and a small one (pushed). */
    record World(long reader, long big, long small, Map<String, Long> idsByGuid) {
        long id(String guid) {
            return idsByGuid.get(guid);
        }
    }

    World pulled;
    World pushed;

    @BeforeEach
    void twins() {
        pulled = world(true);
        pushed = world(false);
        assertThat(mode(pulled.big())).as("three followers: pulled").isTrue();
        assertThat(mode(pushed.big())).as("one follower: pushed").isFalse();
        for (int round = 0; round < 5; round++) {
            List<NewItem> big = new ArrayList<>();
            List<NewItem> small = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                int n = round * 5 + i;
                big.add(entry("b" + n, n % 3 == 0 ? MediaType.IMAGE : MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z").plusSeconds(n)));
                small.add(entry("s" + n, MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z").plusSeconds(n)));
            }
            publishBoth(big, small);
        }
        fanout.drain();
    }

    private World world(boolean pull) {
        long reader = fixtures.person();
        long big = fixtures.feed();
        long small = fixtures.feed();
        subscriptions.subscribe(reader, big, null);
        subscriptions.subscribe(reader, small, null);
        if (pull) {
            fixtures.subscribe(big, fixtures.people(2));
        }
        return new World(reader, big, small, new HashMap<>());
    }

    private void publishBoth(List<NewItem> big, List<NewItem> small) {
        for (World world : List.of(pulled, pushed)) {
            List<Long> bigIds = publisher.publish(world.big(), big).created();
            List<Long> smallIds = publisher.publish(world.small(), small).created();
            for (int i = 0; i < big.size(); i++) {
                world.idsByGuid().put(big.get(i).guid(), bigIds.get(i));
            }
            for (int i = 0; i < small.size(); i++) {
                world.idsByGuid().put(small.get(i).guid(), smallIds.get(i));
            }
        }
    }

    private boolean mode(long source) {
        return jdbc.sql("SELECT pulled FROM source_audiences WHERE source_id = ?").param(source).query(Boolean.class).single();
    }

    /** A page as titles with read flags, which both worlds share. */
    private List<String> page(World world, TimelineQuery query) {
        return feed.page(world.reader(), query).stream().map(entry -> entry.item().body().title() + (entry.read() ? " (read)" : ""))
                .toList();
    }

    /** Every page of a query, following max_id (or min_id when it pages oldest first). */
    private List<String> allPages(World world, Function<World, TimelineQuery> first) {
        List<String> all = new ArrayList<>();
        TimelineQuery query = first.apply(world);
        for (int guard = 0; guard < 50; guard++) {
            List<TimelineEntry> page = feed.page(world.reader(), query);
            page.forEach(entry -> all.add(entry.item().body().title() + (entry.read() ? " (read)" : "")));
            if (page.isEmpty()) {
                break;
            }
            query = query.olderThan(page.getLast().id());
        }
        return all;
    }

    private void assertSame(Function<World, TimelineQuery> query) {
        assertThat(allPages(pulled, query)).isEqualTo(allPages(pushed, query));
    }

    private Unread unreadAsPushed(World world) {
        Unread unread = feed.unread(world.reader());
        Map<Long, Long> bySource = new HashMap<>();
        unread.bySource().forEach((source, count) -> bySource.put(source == world.big() ? -1L : source == world.small() ? -2L : source, count));
        return new Unread(unread.total(), bySource, unread.byMedia(), unread.trimmedUnread());
    }

    private void assertSameEverywhere() {
        assertSame(world -> TimelineQuery.newest(7));
        assertSame(world -> TimelineQuery.newest(40));
        assertSame(world -> TimelineQuery.newest(5).withMedia(Set.of(MediaType.IMAGE)));
        assertSame(world -> TimelineQuery.newest(6).unread());
        assertSame(world -> TimelineQuery.newest(4).withSource(world.big()));
        assertSame(world -> TimelineQuery.newest(4).withSource(world.small()).unread());
        assertSame(world -> TimelineQuery.newest(3).withSources(Set.of(world.big(), world.small())));
        assertSame(world -> new TimelineQuery(null, world.id("b10"), null, 4, null, null, null, false));
        assertSame(world -> new TimelineQuery(null, null, world.id("s10"), 4, null, null, null, false));
        assertSame(world -> new TimelineQuery(world.id("b20"), null, world.id("s3"), 50, null, null, null, false));
        assertThat(unreadAsPushed(pulled)).isEqualTo(unreadAsPushed(pushed));
    }

    @Test
    void thePulledSourceIsReadAtTimelineTimeNotFannedOut() {
        assertThat(fixtures.inbox(pulled.reader())).as("only the small feed's entries were pushed").hasSize(25)
                .doesNotContain(pulled.id("b0"), pulled.id("b24"));
        assertThat(jdbc.sql("SELECT COUNT(*) FROM pulled_items WHERE source_id = ?").param(pulled.big()).query(Long.class).single())
                .isEqualTo(25);
        assertThat(feed.unread(pulled.reader()).total()).isEqualTo(50);
        assertThat(feed.unread(pulled.reader()).bySource()).isEqualTo(Map.of(pulled.big(), 25L, pulled.small(), 25L));
    }

    @Test
    void pagesFiltersCursorsTheWindowAndCountsMatchThePushedTwin() {
        assertThat(allPages(pulled, world -> TimelineQuery.newest(7))).as("the window of 30 over the merged timeline").hasSize(30);
        assertSameEverywhere();
    }

    @Test
    void readMarksOneByOneInBulkAndUpToMatchThePushedTwin() {
        for (World world : List.of(pulled, pushed)) {
            assertThat(feed.markRead(world.reader(), world.id("b3"))).isTrue();
            assertThat(feed.markRead(world.reader(), world.id("b3"))).as("already read").isFalse();
            assertThat(feed.markRead(world.reader(), List.of(world.id("b7"), world.id("s7"), world.id("b8")))).isEqualTo(3);
            assertThat(feed.markReadUpTo(world.reader(), world.id("b12"), world.big())).isEqualTo(10);
            assertThat(feed.markUnread(world.reader(), world.id("b5"))).isTrue();
            assertThat(feed.markUnread(world.reader(), List.of(world.id("b20"), world.id("b8")))).as("b20 was unread").isEqualTo(1);
        }
        assertSameEverywhere();
        for (World world : List.of(pulled, pushed)) {
            // Up to s15: b0..b19 (b5, b8, b13..b19 unread) and s0..s15 (s7 read).
            assertThat(feed.markReadUpTo(world.reader(), world.id("s15"), null)).isEqualTo(9 + 15);
        }
        assertSameEverywhere();
        assertThat(feed.unread(pulled.reader()).total()).isEqualTo(50 - 20 - 16);
    }

    /** Titles of these ids in this world. */
    private List<String> titles(World world, List<Long> ids) {
        Map<Long, String> byId = new HashMap<>();
        world.idsByGuid().forEach((guid, id) -> byId.put(id, guid));
        return ids.stream().map(id -> byId.getOrDefault(id, "?" + id)).toList();
    }

    private List<String> entries(List<TimelineEntry> entries) {
        return entries.stream().map(entry -> entry.item().body().title() + (entry.read() ? " (read)" : "")).toList();
    }

    private void assertSyncViewsSame() {
        for (InboxScan.Reads reads : InboxScan.Reads.values()) {
            assertThat(titles(pulled, feed.ids(pulled.reader(), new InboxScan(reads, null, null, null, null, false, 100))))
                    .isEqualTo(titles(pushed, feed.ids(pushed.reader(), new InboxScan(reads, null, null, null, null, false, 100))));
            assertThat(titles(pulled, feed.ids(pulled.reader(), new InboxScan(reads, Set.of(pulled.big()), null, null,
                    pulled.id("b4"), true, 7))))
                    .isEqualTo(titles(pushed, feed.ids(pushed.reader(), new InboxScan(reads, Set.of(pushed.big()), null, null,
                            pushed.id("b4"), true, 7))));
        }
        assertThat(titles(pulled, feed.unreadIds(pulled.reader()))).isEqualTo(titles(pushed, feed.unreadIds(pushed.reader())));
        assertThat(feed.inboxSize(pulled.reader())).isEqualTo(feed.inboxSize(pushed.reader())).isEqualTo(50);
        for (World world : List.of(pulled, pushed)) {
            assertThat(feed.holds(world.reader(), world.id("b9"))).isTrue();
            assertThat(feed.holds(fixtures.person(), world.id("b9"))).isFalse();
        }
        assertThat(entries(feed.inboxPage(pulled.reader(), pulled.id("s2"), null, 9)))
                .isEqualTo(entries(feed.inboxPage(pushed.reader(), pushed.id("s2"), null, 9)));
        assertThat(entries(feed.inboxPage(pulled.reader(), null, pulled.id("b22"), 45)))
                .isEqualTo(entries(feed.inboxPage(pushed.reader(), null, pushed.id("b22"), 45)));
        List<String> some = List.of("b1", "s1", "b9", "b17", "s20");
        assertThat(entries(feed.inboxEntries(pulled.reader(), some.stream().map(pulled::id).toList())))
                .isEqualTo(entries(feed.inboxEntries(pushed.reader(), some.stream().map(pushed::id).toList())));
        assertThat(titles(pulled, List.copyOf(new java.util.TreeSet<>(feed.readAmong(pulled.reader(), some.stream().map(pulled::id).toList())))))
                .isEqualTo(titles(pushed, List.copyOf(new java.util.TreeSet<>(feed.readAmong(pushed.reader(), some.stream().map(pushed::id).toList())))));
    }

    @Test
    void theSyncViewsIdsPagesEntriesAndSizesMatchThePushedTwin() {
        assertSyncViewsSame();
        for (World world : List.of(pulled, pushed)) {
            feed.markRead(world.reader(), List.of(world.id("b1"), world.id("b17"), world.id("s1")));
            feed.markReadBefore(world.reader(), Instant.now().minusSeconds(3600), null);
        }
        assertSyncViewsSame();
        for (World world : List.of(pulled, pushed)) {
            assertThat(feed.markReadBefore(world.reader(), Instant.now().plusSeconds(5), world.big())).isEqualTo(23);
        }
        assertSyncViewsSame();
        assertSameEverywhere();
    }

    @Test
    void aTombstoneLeavesPagesAndCountsAtOnce() {
        for (World world : List.of(pulled, pushed)) {
            publisher.tombstone(world.id("b24"));
            publisher.tombstone(world.id("b6"));
        }
        fanout.drain();
        assertSameEverywhere();
        assertThat(feed.unread(pulled.reader()).total()).isEqualTo(48);
        assertThat(feed.markRead(pulled.reader(), pulled.id("b24"))).as("gone").isFalse();
    }

    @Test
    void followsKeptByAPageDoNotOutliveAMarkUpToOrAMediaFilterChange() {
        for (World world : List.of(pulled, pushed)) {
            page(world, TimelineQuery.newest(10)); // the node now keeps the list of pulled sources
            assertThat(page(world, TimelineQuery.newest(10))).contains("title b22"); // and the follows read under it
            feed.markReadUpTo(world.reader(), world.id("b22"), world.big());
        }
        assertThat(page(pulled, TimelineQuery.newest(10))).contains("title b22 (read)", "title b23");
        assertSameEverywhere();

        // A pulled follow's filter applies to what is read from then on, older items included (a
        // pushed inbox keeps the entries delivered before), so only the pulled world is compared here.
        page(pulled, TimelineQuery.newest(10));
        page(pulled, TimelineQuery.newest(10));
        subscriptions.subscribe(pulled.reader(), pulled.big(), Set.of(MediaType.IMAGE));
        assertThat(page(pulled, TimelineQuery.newest(10))).as("b23 is text, b24 an image")
                .contains("title b24").doesNotContain("title b23");
    }

    @Test
    void marksKeptByAPageDoNotOutliveAMarkOnASingleItem() {
        for (World world : List.of(pulled, pushed)) {
            page(world, TimelineQuery.newest(10)); // the node now keeps the list of pulled sources
            page(world, TimelineQuery.newest(10)); // and the follows and marks read under it
            assertThat(feed.markRead(world.reader(), world.id("b23"))).isTrue();
        }
        assertThat(page(pulled, TimelineQuery.newest(10))).contains("title b23 (read)", "title b24");
        assertSameEverywhere();
        for (World world : List.of(pulled, pushed)) {
            page(world, TimelineQuery.newest(10));
            assertThat(feed.markUnread(world.reader(), world.id("b23"))).isTrue();
        }
        assertThat(page(pulled, TimelineQuery.newest(10))).contains("title b23").doesNotContain("title b23 (read)");
        assertSameEverywhere();
    }

    @Test
    void aPersonWithMoreMarksThanANodeKeepsStillSeesEachOnTheirPages() {
        // More marks than a node keeps with the follows, on ids below every item here (in the
        // primary key's order before the real one), so a list cut short would miss the real mark.
        for (long id = 1; id <= PulledFeed.MAX_KEPT_MARKS + 10; id++) {
            jdbc.sql("INSERT INTO pulled_marks (user_id, source_id, item_id, is_read) VALUES (?, ?, ?, TRUE)")
                    .params(pulled.reader(), pulled.big(), id).update();
        }
        page(pulled, TimelineQuery.newest(10));
        assertThat(feed.markRead(pulled.reader(), pulled.id("b23"))).isTrue();
        page(pulled, TimelineQuery.newest(10));

        assertThat(page(pulled, TimelineQuery.newest(10))).contains("title b23 (read)", "title b24");
        assertThat(feed.markUnread(pulled.reader(), pulled.id("b23"))).isTrue();
        assertThat(page(pulled, TimelineQuery.newest(10))).contains("title b23").doesNotContain("title b23 (read)");
    }

    @Test
    void aTombstonedInboxEntryNotYetRetractedLeavesMergedPagesAtOnce() {
        for (World world : List.of(pulled, pushed)) {
            publisher.tombstone(world.id("s24"));
            publisher.tombstone(world.id("s20"));
        }
        // Not drained: the retractions have not run, so the rows are still in the inboxes, and a
        // merged page that hydrates them with the pulled items finds them gone and reads again.
        assertThat(fixtures.inbox(pulled.reader())).contains(pulled.id("s24"), pulled.id("s20"));
        assertThat(page(pulled, TimelineQuery.newest(7))).hasSize(7).doesNotContain("title s24", "title s20")
                .contains("title b24", "title s23");
        assertSameEverywhere();
    }

    @Test
    void aNewFollowerSeesTheBackfillThenEverythingAndAPulledPublishMovesTheStamps() {
        long late = fixtures.person();
        subscriptions.subscribe(late, pulled.big(), null);
        assertThat(feed.page(late, TimelineQuery.newest(20)).stream().map(entry -> entry.item().body().title()).toList())
                .as("the newest tributary.fanout.backfill (3) pulled entries").containsExactly("title b24", "title b23", "title b22");
        TimelineStamps before = feed.stamps(late, List.of());
        publisher.publish(pulled.big(), List.of(entry("b25")));
        assertThat(feed.stamps(late, List.of()).person()).isNotEqualTo(before.person());
        assertThat(feed.unread(late).total()).isEqualTo(4);
        assertThat(fixtures.inbox(late)).isEmpty();
    }

    @Test
    void belowEightyPercentTheSourceIsPushedAgainAndItsPulledItemsStay() {
        List<Long> others = jdbc.sql("SELECT user_id FROM subscribers WHERE source_id = ? AND user_id <> ?")
                .params(pulled.big(), pulled.reader()).query(Long.class).list();
        fixtures.unsubscribe(pulled.big(), others.getFirst());
        assertThat(mode(pulled.big())).as("two of three is below 80 %").isFalse();
        List<NewItem> more = List.of(entry("b25"), entry("b26"));
        for (World world : List.of(pulled, pushed)) {
            List<Long> ids = publisher.publish(world.big(), more).created();
            world.idsByGuid().put("b25", ids.get(0));
            world.idsByGuid().put("b26", ids.get(1));
        }
        fanout.drain();
        assertThat(fixtures.inbox(pulled.reader())).contains(pulled.id("b25"), pulled.id("b26")).doesNotContain(pulled.id("b24"));
        assertSameEverywhere();
    }

    @Test
    void manyPeopleReadTogetherEachGetTheirOwnStatesAndCounts() {
        List<Long> others = jdbc.sql("SELECT user_id FROM subscribers WHERE source_id = ? AND user_id <> ? ORDER BY user_id")
                .params(pulled.big(), pulled.reader()).query(Long.class).list();
        long imagesOnly = fixtures.person();
        fixtures.subscribe(pulled.big(), imagesOnly, Set.of(MediaType.IMAGE));
        assertThat(feed.markRead(pulled.reader(), pulled.id("b24"))).isTrue();
        assertThat(feed.markRead(others.getFirst(), pulled.id("b23"))).isTrue();
        assertThat(feed.markReadUpTo(others.get(1), pulled.id("b21"), pulled.big())).isPositive();
        List<Long> people = List.of(pulled.reader(), others.get(0), others.get(1), imagesOnly, pushed.reader());
        List<Long> ids = List.of(pulled.id("b24"), pulled.id("b23"), pulled.id("b21"), pulled.id("b20"), pulled.id("s24"));
        Map<Long, List<Long>> asked = new HashMap<>();
        people.forEach(person -> asked.put(person, ids));

        Map<Long, Map<Long, Boolean>> together = feed.readStates(asked);
        Map<Long, Unread> counts = new HashMap<>();
        feed.unreadByFolder(people).forEach((person, read) -> counts.put(person, read.unread()));

        for (long person : people) {
            assertThat(together.get(person)).as("states of %d", person).isEqualTo(feed.readStates(person, ids));
            assertThat(counts.get(person)).as("counts of %d", person).isEqualTo(feed.unread(person));
        }
        assertThat(together.get(pulled.reader())).containsEntry(pulled.id("b24"), true).containsEntry(pulled.id("b23"), false)
                .containsEntry(pulled.id("s24"), false);
        assertThat(together.get(others.get(0))).containsEntry(pulled.id("b23"), true).containsEntry(pulled.id("b24"), false)
                .doesNotContainKey(pulled.id("s24"));
        assertThat(together.get(others.get(1))).containsEntry(pulled.id("b21"), true).containsEntry(pulled.id("b24"), false);
        assertThat(together.get(imagesOnly)).as("their media filter takes images only (b24 is one)")
                .containsKey(pulled.id("b24")).doesNotContainKeys(pulled.id("b23"), pulled.id("b20"), pulled.id("s24"));
        assertThat(together.get(pushed.reader())).as("the pulled world's items are no entries of the pushed reader").isEmpty();
    }
}

package dev.tributary.pubsub;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.pubsub.inbox.InboxParts;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import dev.tributary.storage.testing.Await;
import dev.tributary.storage.testing.LockWaits;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

@WithEmbeddedPubsub
class StarsTest {

    private static final Instant BASE = Instant.parse("2026-11-01T00:00:00Z");

    @Autowired Stars stars;
    @Autowired Publisher publisher;
    @Autowired Groups groups;
    @Autowired HomeFeed home;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired InboxParts inboxParts;

    @Autowired JdbcClient jdbc;
    @Autowired Transactions tx;
    @Autowired IdGenerator ids;
    @Autowired XmppOutbox xmpp;
    @Autowired VisibleItems visible;
    @Autowired Items items;
    @Autowired Inbox inbox;
    @Autowired ObjectProvider<java.time.Clock> clock;

    private List<Long> publish(long feed, String prefix, int count) {
        List<NewItem> entries = IntStream.range(0, count)
                .mapToObj(i -> entry(prefix + i, MediaType.TEXT, BASE.plusSeconds(i))).toList();
        return publisher.publish(feed, entries).created();
    }

    @Test
    void starringIsIdempotentKeepsTheFirstStarAndMovesThePersonsPageStamp() {
        long person = fixtures.person();
        long item = publish(fixtures.feed(), "idem", 1).getFirst();
        String stampBefore = home.stamps(person, List.of()).person();

        assertThat(stars.star(person, item)).isTrue();
        long firstStar = stars.page(person, null, null, null, 10).newestStarId();
        assertThat(stars.star(person, item)).isFalse();

        assertThat(stars.page(person, null, null, null, 10).newestStarId()).isEqualTo(firstStar);
        assertThat(home.stamps(person, List.of()).person()).as("a star voids the person's kept pages").isNotEqualTo(stampBefore);
        assertThat(stars.starredAmong(person, List.of(item, item + 1))).containsExactly(item);
        assertThat(stars.unstar(person, item)).isTrue();
        assertThat(stars.unstar(person, item)).isFalse();
        assertThat(stars.isStarred(person, item)).isFalse();
        assertThat(stars.starredAmong(person, List.of())).isEmpty();
    }

    @Test
    void aStarRacingThePurgeOfItsItemWaitsForItAndIsRefused() {
        long person = fixtures.person();
        long item = publish(fixtures.feed(), "race", 1).getFirst();
        CompletableFuture<Boolean> star = new CompletableFuture<>();

        tx.run("a purge held open after its tombstone", () -> {
            assertThat(publisher.purge(List.of(item), ids -> java.util.Set.of())).containsExactly(item);
            // The star's visibility check still sees the item: the tombstone is not committed.
            Thread starring = Thread.ofPlatform().start(() -> {
                try {
                    star.complete(stars.star(person, item));
                } catch (Throwable e) {
                    star.completeExceptionally(e);
                }
            });
            LockWaits lockWaits = LockWaits.seenBy(jdbc);
            Await.until(() -> "the star waits on the item's lock, or is done; it is at "
                    + Arrays.toString(starring.getStackTrace()), () -> star.isDone() || lockWaits.holds());
        });

        assertThatThrownBy(star::join).hasCauseInstanceOf(ItemNotFoundException.class);
        assertThat(stars.isStarred(person, item)).as("no star on a purged item").isFalse();
    }

    @Test
    void refusesStarsPastTheCapUntilOneIsTakenOff() {
        Stars capped = new Stars(jdbc, tx, ids, visible, items, inbox, new StarSettings(2), clock, xmpp);
        long person = fixtures.person();
        List<Long> three = publish(fixtures.feed(), "cap", 3);
        capped.star(person, three.get(0));
        capped.star(person, three.get(1));

        assertThatThrownBy(() -> capped.star(person, three.get(2))).isInstanceOf(TooManyStarsException.class);
        assertThat(capped.isStarred(person, three.get(2))).as("the refused star was rolled back").isFalse();
        assertThat(capped.star(person, three.get(1))).as("starring again what is starred is no new star").isFalse();

        capped.unstar(person, three.get(0));
        assertThat(capped.star(person, three.get(2))).isTrue();
    }

    @Test
    void onlyItemsThePersonMaySeeCanBeStarred() {
        long owner = fixtures.person();
        long outsider = fixtures.person();
        Stored<Group> group = groups.create(owner, "Private");
        long post = groups.post(group.id(), owner, entry("secret")).created().getFirst();
        fanout.drain();

        assertThatThrownBy(() -> stars.star(outsider, post)).isInstanceOf(ItemNotFoundException.class);
        assertThatThrownBy(() -> stars.unstar(outsider, post)).isInstanceOf(ItemNotFoundException.class);
        assertThatThrownBy(() -> stars.star(outsider, Long.MAX_VALUE)).isInstanceOf(ItemNotFoundException.class);
        assertThat(stars.star(owner, post)).isTrue();
        assertThat(stars.page(outsider, null, null, null, 10).items()).isEmpty();
    }

    @Test
    void aStarOutlivesTheTrimmingOfItsInboxRow() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        long starred = publish(feed, "old", 1).getFirst();
        fanout.drain();
        stars.star(person, starred);

        publish(feed, "new", 70);
        fanout.drain();
        inboxParts.trim(person);

        assertThat(home.holds(person, starred)).as("the inbox row was trimmed").isFalse();
        assertThat(stars.page(person, null, null, null, 10).items()).extracting(s -> s.item().id()).containsExactly(starred);
        assertThat(stars.starredAmong(person, List.of(starred))).containsExactly(starred);
    }

    @Test
    void aTombstonedItemLeavesTheListButItsPageStillLeadsOn() {
        long person = fixtures.person();
        List<Long> three = publish(fixtures.feed(), "tomb", 3);
        three.forEach(item -> stars.star(person, item));

        publisher.tombstone(three.get(1));

        StarPage all = stars.page(person, null, null, null, 10);
        assertThat(all.items()).extracting(s -> s.item().id()).containsExactly(three.get(2), three.get(0));
        assertThat(stars.allItemIds(person, 10)).containsExactly(three.get(2), three.get(0));
        StarPage first = stars.page(person, null, null, null, 1);
        StarPage onlyTombstone = stars.page(person, first.oldestStarId(), null, null, 1);
        assertThat(onlyTombstone.items()).isEmpty();
        assertThat(onlyTombstone.oldestStarId()).as("the cursor passes the tombstone").isNotNull();
        assertThat(stars.page(person, onlyTombstone.oldestStarId(), null, null, 1).items())
                .extracting(s -> s.item().id()).containsExactly(three.get(0));
    }

    @Test
    void pagesNewestStarredFirstByStarNotByItem() {
        long person = fixtures.person();
        List<Long> items = publish(fixtures.feed(), "order", 5);
        // Starred in an order unlike the items' own: 3, 0, 4, 1, 2.
        List<Long> starOrder = List.of(items.get(3), items.get(0), items.get(4), items.get(1), items.get(2));
        starOrder.forEach(item -> stars.star(person, item));
        List<Long> newestFirst = new ArrayList<>(starOrder).reversed();

        StarPage first = stars.page(person, null, null, null, 2);
        assertThat(first.items()).extracting(s -> s.item().id()).containsExactlyElementsOf(newestFirst.subList(0, 2));
        StarPage second = stars.page(person, first.oldestStarId(), null, null, 2);
        assertThat(second.items()).extracting(s -> s.item().id()).containsExactlyElementsOf(newestFirst.subList(2, 4));
        StarPage newer = stars.page(person, null, null, second.newestStarId(), 1);
        assertThat(newer.items()).as("min_id: the oldest newer than it").extracting(s -> s.item().id())
                .containsExactly(newestFirst.get(1));
        StarPage since = stars.page(person, null, second.newestStarId(), null, 10);
        assertThat(since.items()).extracting(s -> s.item().id()).containsExactlyElementsOf(newestFirst.subList(0, 2));
        assertThat(stars.allItemIds(person, 3)).containsExactlyElementsOf(newestFirst.subList(0, 3));
        assertThatThrownBy(() -> stars.page(person, null, null, null, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

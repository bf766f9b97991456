package dev.tributary.pubsub.pull;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.TimelineStamps;
import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithPullThreshold;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What a node keeps of pulled sources stays exact. A kept page's stamp check reads the person's
 * pulled sources from MySQL only when they may have changed: the node keeps the list while the
 * person's stamp and the pulled generation hold, and every change to the list (a follow or
 * unfollow of a pulled source, a followed source pulled for the first time) moves one of them. A
 * source's newest items, kept for all its followers' pages, follow every publish and tombstone.
 */
@WithPullThreshold
class KeptPulledSourcesTest {

    @Autowired Publisher publisher;
    @Autowired Subscriptions subscriptions;
    @Autowired Inbox inbox;
    @Autowired PulledFeed pulled;
    @Autowired Fixtures fixtures;
    @Autowired dev.tributary.pubsub.HomeFeed feed;

    private final List<List<Long>> loads = new ArrayList<>();

    private TimelineStamps stamps(long person) {
        return inbox.stamps(person, List.of(), id -> {
            List<Long> sources = pulled.sourcesOf(id);
            loads.add(sources);
            return sources;
        }, List.of());
    }

    private long feedFollowedBy(int people) {
        long source = fixtures.feed();
        fixtures.subscribe(source, fixtures.people(people));
        publisher.publish(source, List.of(entry("first of " + source)));
        return source;
    }

    @Test
    void theListIsReadOnceAndAgainOnlyAfterItChanged() {
        long a = feedFollowedBy(3);
        long reader = fixtures.person();
        subscriptions.subscribe(reader, a, null);

        TimelineStamps first = stamps(reader);
        TimelineStamps again = stamps(reader);
        assertThat(loads).as("read from MySQL once, then kept").containsExactly(List.of(a));
        assertThat(again).isEqualTo(first);

        publisher.publish(a, List.of(entry("a pulled publish")));
        TimelineStamps afterPublish = stamps(reader);
        assertThat(afterPublish.person()).as("the source's stamp is folded in").isNotEqualTo(first.person());
        assertThat(loads).as("a publish does not change the list").hasSize(1);

        long b = feedFollowedBy(2);
        subscriptions.subscribe(reader, b, null); // the third follower: b is pulled for the first time
        stamps(reader);
        assertThat(loads.getLast()).containsExactly(a, b);

        subscriptions.unsubscribe(reader, a);
        TimelineStamps afterUnfollow = stamps(reader);
        assertThat(loads.getLast()).containsExactly(b);
        assertThat(afterUnfollow.person()).doesNotContain(a + "=");
        assertThat(loads).hasSize(3);
    }

    @Test
    void aFollowedSourcePulledForTheFirstTimeJoinsEveryFollowersKeptList() {
        long c = feedFollowedBy(1);
        long reader = fixtures.person();
        subscriptions.subscribe(reader, c, null);
        stamps(reader);
        assertThat(loads.getLast()).as("c is pushed").isEmpty();

        long before = feed.unread(reader).total();
        assertThat(newest(reader)).hasSize(1); // the page and the counts were read while c was pushed

        subscriptions.subscribe(fixtures.person(), c, null); // someone else's follow makes c pulled
        long pulledItem = publisher.publish(c, List.of(entry("pulled now"))).created().getFirst();
        assertThat(feed.unread(reader).total()).as("counted at once").isEqualTo(before + 1);
        assertThat(newest(reader)).first().as("shown at once").isEqualTo(pulledItem);
        loads.clear();
        stamps(reader);
        assertThat(loads).as("the page and counts above read the new list already").isEmpty();
        assertThat(stamps(reader).person()).contains(c + "=");
    }

    @Test
    void aSourcesKeptNewestItemsFollowEveryPublishAndTombstone() {
        long source = feedFollowedBy(3);
        long reader = fixtures.person();
        subscriptions.subscribe(reader, source, null);
        List<Long> before = newest(reader);
        assertThat(newest(reader)).as("read again from what the node keeps").isEqualTo(before);

        long fresh = publisher.publish(source, List.of(entry("fresh"))).created().getFirst();
        assertThat(newest(reader)).first().isEqualTo(fresh);
        publisher.tombstone(fresh);
        assertThat(newest(reader)).isEqualTo(before);
    }

    private List<Long> newest(long person) {
        return feed.page(person, dev.tributary.pubsub.TimelineQuery.newest(5)).stream().map(dev.tributary.pubsub.TimelineEntry::id).toList();
    }
}

package dev.tributary.pubsub.exactness;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.RuleAction;
import dev.tributary.pubsub.RuleDraft;
import dev.tributary.pubsub.RuleField;
import dev.tributary.pubsub.RuleSyntax;
import dev.tributary.pubsub.Rules;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.inbox.InboxParts;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 45 at the pub/sub level (back-fill 3, inbox of 60, 2 unread kept per source in these
 * tests): the first subscriber, unsubscribing, trimming and folder rules on new subscriptions.
 */
@WithEmbeddedPubsub
class NothingSilentlyLostTest {

    @Autowired Publisher publisher;
    @Autowired Subscriptions subscriptions;
    @Autowired HomeFeed home;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired InboxParts parts;
    @Autowired Folders folders;
    @Autowired Rules rules;

    private static List<NewItem> entries(String prefix, int count) {
        List<NewItem> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            entries.add(entry(prefix + i, MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z").plusSeconds(i)));
        }
        return entries;
    }

    @Test
    void theFirstSubscriberGetsTheBackfillAloneNotTheFanOutOfItemsStoredBeforeItSubscribed() {
        long feed = fixtures.feed();
        List<Long> ids = publisher.publishDocument(feed, entries("first-", 10), List.of()).created();
        assertThat(fanout.pending()).as("the first fetch's deliveries wait for a worker").isPositive();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        fanout.drain();
        assertThat(fixtures.inbox(reader)).as("the newest 3, as for any later subscriber").isEqualTo(ids.subList(7, 10));

        List<Long> later = publisher.publishDocument(feed, entries("later-", 2), ids).created();
        fanout.drain();
        List<Long> expected = new ArrayList<>(ids.subList(7, 10));
        expected.addAll(later);
        assertThat(fixtures.inbox(reader)).as("and every item after").isEqualTo(expected);
    }

    @Test
    void unsubscribingTakesTheSourcesUnreadOutOfTheCountsAndKeepsItsEntriesAsReadHistory() {
        long feed = fixtures.feed();
        long other = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        fixtures.subscribe(other, List.of(reader));
        publisher.publish(feed, entries("gone-", 20));
        publisher.publish(other, entries("stays-", 4));
        fanout.drain();
        assertThat(home.unread(reader).total()).isEqualTo(24);

        fixtures.unsubscribe(feed, reader);

        Unread unread = home.unread(reader);
        assertThat(unread.total()).isEqualTo(4);
        assertThat(unread.bySource()).containsOnlyKeys(other);
        assertThat(unread).isEqualTo(fixtures.truth(reader));
        assertThat(fixtures.inbox(reader)).as("history stays").hasSize(24);
    }

    @Test
    void trimmingPastTheCapKeepsEachSourcesNewestUnreadAndCountsWhatItTrimmed() {
        long reader = fixtures.person();
        List<Long> feeds = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long feed = fixtures.feed();
            feeds.add(feed);
            fixtures.subscribe(feed, List.of(reader));
            publisher.publish(feed, entries("cap" + i + "-", 5));
        }
        fanout.drain();
        assertThat(home.unread(reader).total()).isEqualTo(100);

        parts.trim(reader);

        Unread unread = home.unread(reader);
        assertThat(unread.total()).as("trimmed to the cap of 60").isEqualTo(60);
        assertThat(unread.trimmedUnread()).isEqualTo(40);
        assertThat(unread).isEqualTo(fixtures.truth(reader));
        for (long feed : feeds) {
            assertThat(unread.bySource().getOrDefault(feed, 0L)).as("feed %s keeps its newest 2", feed).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void aSubscriptionMadeIntoAFolderGetsTheFoldersRulesFromItsBackfillOn() {
        long reader = fixtures.person();
        long folder = folders.create(reader, "Quiet").id();
        rules.create(reader, new RuleDraft(RuleAction.DROP, RuleField.TITLE, RuleSyntax.TEXT, "zap", null, folder));
        long feed = fixtures.feed();
        List<NewItem> document = List.of(entry("zap-1", MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z")),
                entry("ok-1", MediaType.TEXT, Instant.parse("2026-11-01T00:00:01Z")),
                entry("zap-2", MediaType.TEXT, Instant.parse("2026-11-01T00:00:02Z")));
        List<Long> ids = publisher.publishDocument(feed, document, List.of()).created();

        assertThat(subscriptions.subscribe(reader, feed, null, List.of(folder)).created()).isTrue();
        fanout.drain();

        assertThat(fixtures.inbox(reader)).containsExactly(ids.get(1));
        assertThat(folders.foldersOf(reader, feed)).extracting(f -> f.id()).containsExactly(folder);
    }

    @Test
    void aBatchOfSubscriptionsMadeIntoFoldersGetsTheFoldersRulesToo() {
        long reader = fixtures.person();
        long folder = folders.create(reader, "Muted").id();
        rules.create(reader, new RuleDraft(RuleAction.DROP, RuleField.TITLE, RuleSyntax.TEXT, "zap", null, folder));
        long filed = fixtures.feed();
        long unfiled = fixtures.feed();
        List<Long> filedIds = publisher.publishDocument(filed, List.of(entry("zap-a", MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z")),
                entry("ok-a", MediaType.TEXT, Instant.parse("2026-11-01T00:00:01Z"))), List.of()).created();
        List<Long> unfiledIds = publisher.publishDocument(unfiled, List.of(entry("zap-b", MediaType.TEXT,
                Instant.parse("2026-11-01T00:00:02Z"))), List.of()).created();

        subscriptions.subscribeAll(reader, List.of(new Subscriptions.Wanted(filed, null, Set.of(folder)),
                new Subscriptions.Wanted(unfiled, null)));
        fanout.drain();

        assertThat(fixtures.inbox(reader)).containsExactlyInAnyOrder(filedIds.get(1), unfiledIds.get(0));
    }
}

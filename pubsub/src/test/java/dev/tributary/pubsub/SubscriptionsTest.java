package dev.tributary.pubsub;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;

@WithEmbeddedPubsub
@RecordApplicationEvents
class SubscriptionsTest {

    @Autowired Subscriptions subscriptions;
    @Autowired Sources sources;
    @Autowired Publisher publisher;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired HomeFeed unread;
    @Autowired RedisConnectionFactory redis;
    @Autowired ApplicationEvents events;
    @Autowired LimitSettings limits;
    @Autowired JdbcClient jdbc;

    @Test
    void aSourceIsReadWhileSomeoneSubscribesOrAttachesItAndEachNewReaderIsAnnounced() {
        long subscribed = fixtures.feed();
        long attached = fixtures.feed();
        long unread = fixtures.feed();
        long reader = fixtures.person();
        long alice = fixtures.person();

        subscriptions.subscribe(reader, subscribed, null);
        subscriptions.subscribe(reader, subscribed, Set.of(MediaType.TEXT));
        sources.attach(alice, attached);
        sources.attach(alice, attached);

        assertThat(sources.read(List.of(subscribed, attached, unread))).containsExactlyInAnyOrder(subscribed, attached);
        assertThat(sources.read(List.of())).isEmpty();
        assertThat(events.stream(SourceFollowed.class))
                .as("once per new reader, not for a changed filter or a repeated attach")
                .containsExactly(new SourceFollowed(subscribed), new SourceFollowed(attached));

        assertThat(subscriptions.unsubscribe(reader, subscribed)).isTrue();
        assertThat(subscriptions.unsubscribe(reader, subscribed)).isFalse();
        sources.detach(alice, attached);
        assertThat(sources.read(List.of(subscribed, attached))).isEmpty();
        assertThat(events.stream(SourceUnfollowed.class)).as("once, for the subscription that ended")
                .containsExactly(new SourceUnfollowed(reader, subscribed));
    }

    @Test
    void subscribingTwiceKeepsOneSubscriptionAndChangesItsMediaFilter() {
        long feed = fixtures.feed();
        long reader = fixtures.person();

        SubscribeResult first = subscriptions.subscribe(reader, feed, Set.of(MediaType.TEXT));
        SubscribeResult again = subscriptions.subscribe(reader, feed, Set.of(MediaType.TEXT));
        SubscribeResult widened = subscriptions.subscribe(reader, feed, null);

        assertThat(first.created()).isTrue();
        assertThat(first.subscription().media()).containsExactly(MediaType.TEXT);
        assertThat(again.created()).isFalse();
        assertThat(again.subscription()).isEqualTo(first.subscription());
        assertThat(widened.subscription().id()).isEqualTo(first.subscription().id());
        assertThat(widened.subscription().media()).isNull();
        assertThat(subscriptions.of(reader)).containsExactly(widened.subscription());
        assertThat(subscriptions.subscriberCount(feed)).isEqualTo(1);
    }

    @Test
    void onlyTheOwnerCanEndASubscriptionById() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        long stranger = fixtures.person();
        Subscription subscription = subscriptions.subscribe(reader, feed, null).subscription();

        assertThat(subscriptions.byId(stranger, subscription.id())).isEmpty();
        assertThat(subscriptions.unsubscribeById(stranger, subscription.id())).isFalse();
        assertThat(subscriptions.of(reader)).hasSize(1);
        assertThat(subscriptions.unsubscribeById(reader, subscription.id())).isTrue();
        assertThat(subscriptions.unsubscribeById(reader, subscription.id())).isFalse();
        assertThat(subscriptions.of(reader)).isEmpty();
        assertThat(subscriptions.subscriberCount(feed)).isZero();
    }

    @Test
    void aBatchFollowsNewSourcesUnderTheirTitlesLeavesFollowedOnesAloneAndBackfillsEach() {
        long fetched = fixtures.feed();
        long empty = fixtures.feed();
        long followed = fixtures.feed();
        List<Long> items = publisher.publish(fetched, List.of(entry("b1"), entry("b2"), entry("b3"), entry("b4"))).created();
        publisher.documentCarried(fetched, items);
        long reader = fixtures.person();
        Subscription filtered = subscriptions.subscribe(reader, followed, Set.of(MediaType.TEXT)).subscription();
        events.clear();

        Subscriptions.Batch batch = subscriptions.subscribeAll(reader, List.of(new Subscriptions.Wanted(fetched, "  Mine "),
                new Subscriptions.Wanted(empty, null), new Subscriptions.Wanted(followed, "Renamed?"),
                new Subscriptions.Wanted(fetched, "Twice")));

        assertThat(batch.created()).extracting(Subscription::sourceId).containsExactly(fetched, empty);
        assertThat(batch.alreadyFollowed()).containsExactly(followed);
        assertThat(batch.pastLimit()).isEmpty();
        assertThat(subscriptions.find(reader, fetched)).get().extracting(Subscription::title, Subscription::media)
                .containsExactly("Mine", null);
        assertThat(subscriptions.find(reader, followed)).contains(filtered);
        assertThat(subscriptions.subscriberCount(fetched)).isEqualTo(1);
        assertThat(subscriptions.subscriberCount(empty)).isEqualTo(1);
        assertThat(fixtures.inbox(reader)).as("the back-fill of 3 in these tests: the newest")
                .containsExactlyInAnyOrder(items.get(3), items.get(2), items.get(1));
        assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(events.stream(SourceFollowed.class)).containsExactly(new SourceFollowed(fetched), new SourceFollowed(empty));

        Subscriptions.Batch again = subscriptions.subscribeAll(reader, List.of(new Subscriptions.Wanted(fetched, null)));
        assertThat(again.created()).isEmpty();
        assertThat(again.alreadyFollowed()).containsExactly(fetched);
        assertThat(subscriptions.subscribeAll(reader, List.of()).created()).isEmpty();
    }

    @Test
    void aBatchStopsAtThePersonsLimitInTheOrderAsked() {
        long reader = fixtures.person();
        long held = limits.of(Quota.SUBSCRIPTIONS) - 2;
        // Stands in for a person who follows all but two of what they may: rows, not sources, are counted.
        jdbc.sql("INSERT INTO subscriptions (user_id, source_id, id, media_mask, created_at) "
                + "SELECT ?, -seq, -seq, 31, UTC_TIMESTAMP(6) FROM seq_1_to_" + held).param(reader).update();
        long first = fixtures.feed();
        long second = fixtures.feed();
        long third = fixtures.feed();

        Subscriptions.Batch batch = subscriptions.subscribeAll(reader, List.of(new Subscriptions.Wanted(first, null),
                new Subscriptions.Wanted(second, null), new Subscriptions.Wanted(third, null)));

        assertThat(batch.created()).extracting(Subscription::sourceId).containsExactly(first, second);
        assertThat(batch.pastLimit()).containsExactly(third);
        assertThat(subscriptions.find(reader, third)).isEmpty();
        assertThat(subscriptions.count(reader)).isEqualTo(limits.of(Quota.SUBSCRIPTIONS));
        assertThatThrownBy(() -> subscriptions.subscribe(reader, third, null)).isInstanceOf(QuotaExceededException.class);
    }

    @Test
    void aBatchWithAnUnknownSourceOrABadTitleSubscribesNothing() {
        long reader = fixtures.person();
        long feed = fixtures.feed();
        assertThatThrownBy(() -> subscriptions.subscribeAll(reader, List.of(new Subscriptions.Wanted(feed, null),
                new Subscriptions.Wanted(Long.MAX_VALUE, null)))).isInstanceOf(SourceNotFoundException.class);
        assertThatThrownBy(() -> subscriptions.subscribeAll(reader, List.of(new Subscriptions.Wanted(feed, "bell\u0007"))))
                .isInstanceOf(InvalidNameException.class);
        assertThat(subscriptions.of(reader)).isEmpty();
    }

    @Test
    void feedsAreRegisteredInBulkKnownOnesFoundAndNewOnesTitledUntilFetched() {
        String known = "https://bulk.example/known-" + System.nanoTime();
        String fresh = "https://bulk.example/fresh-" + System.nanoTime();
        long knownId = sources.feed(known).id();

        Map<String, Stored<Source>> registered = sources.feeds(List.of(new Sources.NewFeed(known, "Outline title", null),
                new Sources.NewFeed(fresh, "Fresh feed", "https://bulk.example/"), new Sources.NewFeed(fresh, "Again", null)));

        assertThat(registered).containsOnlyKeys(known, fresh);
        assertThat(registered.get(known).id()).isEqualTo(knownId);
        assertThat(registered.get(known).body().title()).as("a known feed without a title takes the outline's").isEqualTo("Outline title");
        assertThat(registered.get(fresh).body()).extracting(Source::kind, Source::url, Source::title, Source::siteUrl)
                .containsExactly(SourceKind.FEED, fresh, "Fresh feed", "https://bulk.example/");
        assertThat(sources.findFeeds(List.of(known, fresh, "https://bulk.example/unknown")))
                .containsOnlyKeys(known, fresh);
        assertThat(sources.feed(fresh).id()).isEqualTo(registered.get(fresh).id());
    }

    @Test
    void bulkRegistrationsRacingOverTheSameUrlsAgreeOnOneSourceEach() throws Exception {
        for (int round = 0; round < 5; round++) {
            String base = "https://race.example/" + System.nanoTime() + "/";
            List<Sources.NewFeed> evens = new ArrayList<>();
            List<Sources.NewFeed> all = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                Sources.NewFeed feed = new Sources.NewFeed(base + i, "Feed " + i, null);
                all.add(feed);
                if (i % 2 == 0) {
                    evens.add(feed);
                }
            }
            try (var executor = java.util.concurrent.Executors.newFixedThreadPool(3)) {
                var first = executor.submit(() -> sources.feeds(all));
                var second = executor.submit(() -> sources.feeds(all.reversed()));
                var third = executor.submit(() -> sources.feeds(evens));
                Map<String, Stored<Source>> a = first.get(1, TimeUnit.MINUTES);
                Map<String, Stored<Source>> b = second.get(1, TimeUnit.MINUTES);
                Map<String, Stored<Source>> c = third.get(1, TimeUnit.MINUTES);
                for (Sources.NewFeed feed : all) {
                    long id = a.get(feed.url()).id();
                    assertThat(b.get(feed.url()).id()).as(feed.url()).isEqualTo(id);
                    assertThat(sources.findFeed(feed.url()).orElseThrow().id()).isEqualTo(id);
                    assertThat(sources.get(id).body().title()).isEqualTo(feed.title());
                    if (evens.contains(feed)) {
                        assertThat(c.get(feed.url()).id()).isEqualTo(id);
                    }
                }
            }
        }
    }

    @Test
    void refusesUnknownSources() {
        long reader = fixtures.person();
        assertThatThrownBy(() -> subscriptions.subscribe(reader, Long.MAX_VALUE, null)).isInstanceOf(SourceNotFoundException.class);
        assertThatThrownBy(() -> subscriptions.subscribe(reader, 0, null)).isInstanceOf(SourceNotFoundException.class);
    }

    @Test
    void aFeedAttachedToAProfileReachesThatPersonsFollowersOnce() {
        long alice = fixtures.person();
        long follower = fixtures.person();
        long both = fixtures.person();
        long feed = fixtures.feed();
        subscriptions.subscribe(follower, sources.ofUser(alice).id(), null);
        subscriptions.subscribe(both, sources.ofUser(alice).id(), null);
        subscriptions.subscribe(both, feed, null);
        sources.attach(alice, feed);
        sources.attach(alice, feed);

        long item = publisher.publish(feed, List.of(entry("relayed"))).created().getFirst();
        fanout.drain();

        assertThat(sources.attachedFeeds(alice)).containsExactly(feed);
        assertThat(fixtures.inbox(follower)).containsExactly(item);
        assertThat(fixtures.inbox(both)).as("reached twice, delivered once").containsExactly(item);
        assertThat(fixtures.truth(both).total()).isEqualTo(1);
        assertThat(unread.unread(both)).isEqualTo(fixtures.truth(both));

        assertThat(sources.detach(alice, feed)).isTrue();
        publisher.publish(feed, List.of(entry("not relayed")));
        fanout.drain();
        assertThat(fixtures.inbox(follower)).containsExactly(item);
        assertThatThrownBy(() -> sources.attach(alice, sources.ofUser(follower).id())).isInstanceOf(IllegalArgumentException.class);
    }

    /** When the people's counters are built, relative to the reader's mark: the mark lives in a different field of the hash. */
    enum Counts { UNBUILT, BUILT_BEFORE_LISTENING, BUILT_AFTER_LISTENING }

    @ParameterizedTest
    @EnumSource(Counts.class)
    void everyDeliveryIsAnnouncedOnTheRecipientsChannel(Counts counts) throws Exception {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        long away = fixtures.person();
        fixtures.subscribe(feed, List.of(reader, away));
        if (counts == Counts.BUILT_BEFORE_LISTENING) {
            assertThat(unread.unread(reader).total() + unread.unread(away).total()).isZero();
        }
        // Announcements go to people marked listening (a live stream marks its person before subscribing).
        unread.listening(List.of(reader));
        if (counts == Counts.BUILT_AFTER_LISTENING) {
            assertThat(unread.unread(reader).total() + unread.unread(away).total()).isZero();
        }
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        RedisMessageListenerContainer listener = new RedisMessageListenerContainer();
        listener.setConnectionFactory(redis);
        listener.addMessageListener((message, pattern) -> heard.add(new String(message.getBody())),
                new ChannelTopic(InboxEvent.channel(reader)));
        BlockingQueue<String> overheard = new LinkedBlockingQueue<>();
        listener.addMessageListener((message, pattern) -> overheard.add(new String(message.getBody())),
                new ChannelTopic(InboxEvent.channel(away)));
        listener.afterPropertiesSet();
        listener.start();
        try {
            long item = publisher.publish(feed, List.of(entry("live", MediaType.TEXT, Instant.now()))).created().getFirst();
            fanout.drain();
            assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("item " + item);
            assertThat(unread.unread(reader)).isEqualTo(fixtures.truth(reader));
            publisher.tombstone(item);
            fanout.drain();
            assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("delete " + item);
            List<String> rest = new ArrayList<>();
            heard.drainTo(rest);
            assertThat(rest).isEmpty();
            // A message of our own after everything fan-out published: Redis delivers in order, so
            // anything fan-out announced to the person not listening would come before it.
            try (RedisConnection connection = redis.getConnection()) {
                connection.publish(InboxEvent.channel(away).getBytes(StandardCharsets.UTF_8), "end".getBytes(StandardCharsets.UTF_8));
            }
            assertThat(overheard.poll(10, TimeUnit.SECONDS)).as("nothing announced to a person not marked listening")
                    .isEqualTo("end");
        } finally {
            listener.stop();
            listener.destroy();
        }
    }
}

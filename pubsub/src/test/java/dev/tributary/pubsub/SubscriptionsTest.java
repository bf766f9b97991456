package dev.tributary.pubsub;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.RedisConnectionFactory;
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

        subscriptions.unsubscribe(reader, subscribed);
        sources.detach(alice, attached);
        assertThat(sources.read(List.of(subscribed, attached))).isEmpty();
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

    @Test
    void everyDeliveryIsAnnouncedOnTheRecipientsChannel() throws Exception {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        RedisMessageListenerContainer listener = new RedisMessageListenerContainer();
        listener.setConnectionFactory(redis);
        listener.addMessageListener((message, pattern) -> heard.add(new String(message.getBody())),
                new ChannelTopic(InboxEvent.channel(reader)));
        listener.afterPropertiesSet();
        listener.start();
        try {
            long item = publisher.publish(feed, List.of(entry("live", MediaType.TEXT, Instant.now()))).created().getFirst();
            fanout.drain();
            assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("item " + item);
            publisher.tombstone(item);
            fanout.drain();
            assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("delete " + item);
            List<String> rest = new ArrayList<>();
            heard.drainTo(rest);
            assertThat(rest).isEmpty();
        } finally {
            listener.stop();
            listener.destroy();
        }
    }
}

package dev.tributary.api.hub;

import dev.tributary.api.export.FeedTopic;
import dev.tributary.api.export.FeedTopics;
import dev.tributary.api.export.TopicContent;
import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.Roles;
import dev.tributary.pubsub.Wakeup;
import dev.tributary.pubsub.Writes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Lazy;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * Notices when a topic's content changes. A person's topic is their export, so its changes are the
 * owner's inbox changes (their own posts and attached feeds reach their own inbox; a home feed
 * is the inbox): the owner's inbox channel (the one the live stream hears) wakes a check at once.
 * A group's posts reach its members' inboxes, and its owner is always a member: the group owner's
 * inbox channel wakes its topics' checks, and so does the group source's own channel (on which a
 * source whose posts are pulled rather than pushed announces them).
 * Every topic is also checked every {@code check-interval}, which catches what no notice
 * announces (an item edited in place) and notices missed while no node listened. A check writes
 * the topic as its subscribers would read it and compares the ETag with the last seen; a change
 * marks every subscription's delivery pending in the same transaction as the new ETag, so a
 * change is delivered once noticed, whatever node or crash comes after. Runs on fan-out nodes.
 */
@Component
class TopicWatch implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TopicWatch.class);
    /** How often the owners listened to are read again (other nodes' new subscriptions) and their marks renewed. */
    private static final Duration RELISTEN = HomeFeed.LISTENING_TTL.dividedBy(3);
    private static final int CHECK_BATCH = 200;

    private final Topics topics;
    private final Subscribers subscribers;
    private final FeedTopics feeds;
    private final HomeFeed home;
    private final RedisMessageListenerContainer listeners;
    private final IntentVerifier verifier;
    private final Distributor distributor;
    private final Writes tx;
    private final HubSettings settings;
    private final boolean runs;
    private final Clock clock;
    private final Groups groups;
    private final Map<Long, Listening> listened = new ConcurrentHashMap<>();
    private final Set<Long> woken = ConcurrentHashMap.newKeySet();
    private final Wakeup wakeup = new Wakeup();
    private volatile boolean running;
    private Thread worker;

    TopicWatch(Topics topics, Subscribers subscribers, FeedTopics feeds, HomeFeed home, RedisMessageListenerContainer listeners,
            @Lazy IntentVerifier verifier, Distributor distributor, Writes tx, HubSettings settings, Roles roles,
            ObjectProvider<Clock> clock, Groups groups) {
        this.groups = groups;
        this.topics = topics;
        this.subscribers = subscribers;
        this.feeds = feeds;
        this.home = home;
        this.listeners = listeners;
        this.verifier = verifier;
        this.distributor = distributor;
        this.tx = tx;
        this.settings = settings;
        this.runs = settings.enabled() && roles.runs(FanoutSettings.ROLE);
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /** Hears the notices of the topic's owner from now on (a subscription to it was just made). */
    void listen(FeedTopic topic) {
        listen(topic.kind(), topic.ownerId());
    }

    private void listen(FeedTopic.Kind kind, long ownerId) {
        if (!runs || listened.containsKey(ownerId)) {
            return;
        }
        Listening listening = listening(kind, ownerId);
        if (listening == null) {
            return;
        }
        // Marked before subscribing, as the live stream does, so that nothing fanned out after is unannounced.
        home.listening(List.of(listening.person()));
        if (listened.putIfAbsent(ownerId, listening) == null) {
            listening.channels().forEach(channel -> listeners.addMessageListener(listening.listener(), channel));
        }
    }

    /** What wakes the checks of an owner's topics; null for a group that is gone (its topics end at their next check). */
    private @Nullable Listening listening(FeedTopic.Kind kind, long ownerId) {
        MessageListener listener = (message, pattern) -> {
            woken.add(ownerId);
            wakeup.wake();
        };
        return switch (kind) {
            case USER, HOME -> new Listening(listener, List.of(new ChannelTopic(InboxEvent.channel(ownerId))), ownerId);
            case GROUP -> groups.find(ownerId).map(group -> new Listening(listener,
                    List.of(new ChannelTopic(InboxEvent.channel(group.body().ownerId())),
                            new ChannelTopic(InboxEvent.sourceChannel(group.body().sourceId()))),
                    group.body().ownerId())).orElse(null);
        };
    }

    /** A listener on the channels that announce an owner's changes, and the person marked as listening so fan-out announces to them. */
    private record Listening(MessageListener listener, List<ChannelTopic> channels, long person) {
    }

    /** Checks the topics of whoever was announced, and the topics whose periodic check is due; until stopped. */
    private void run() {
        Instant relistened = Instant.EPOCH;
        while (running) {
            long mark = wakeup.mark();
            try {
                Instant now = clock.instant();
                if (now.isAfter(relistened.plus(RELISTEN))) {
                    relisten();
                    relistened = now;
                }
                List<Long> owners = new ArrayList<>(woken);
                woken.removeAll(owners);
                for (Topics.Watched watched : topics.ofOwners(owners)) {
                    check(watched);
                }
                for (Topics.Watched watched : topics.unchecked(now.minus(settings.checkInterval()), CHECK_BATCH)) {
                    check(watched);
                }
                if (woken.isEmpty()) {
                    wakeup.await(mark, Duration.ofSeconds(1));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.warn("hub: checking topics failed; trying again", e);
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException stop) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Checks one topic now: a change marks its deliveries; a topic no longer served ends its subscriptions. */
    void check(Topics.Watched watched) throws InterruptedException {
        FeedTopic topic = watched.topic();
        Optional<TopicContent> content = feeds.content(topic);
        Instant now = clock.instant();
        if (content.isEmpty()) {
            end(topic);
            return;
        }
        String etag = content.get().etag();
        if (Objects.equals(etag, watched.etag())) {
            topics.checked(topic.key(), now);
            return;
        }
        int marked = tx.write("hub topic changed", () -> topics.changed(topic.key(), watched.etag(), etag, now)
                ? subscribers.markChanged(topic.key(), now) : 0);
        if (marked > 0) {
            log.debug("hub: {} changed, {} deliveries", topic.key(), marked);
            distributor.wake();
        }
    }

    /** The person is gone, their home feed's token was replaced, or the group closed: every subscription ends, each told so. */
    void end(FeedTopic topic) throws InterruptedException {
        List<Subscriber> ended = subscribers.ofTopic(topic.key());
        tx.run("hub topic ended", () -> {
            subscribers.removeTopic(topic.key());
            topics.remove(topic.key());
        });
        log.info("hub: {} is no longer served; {} subscriptions ended", topic.key(), ended.size());
        for (Subscriber subscriber : ended) {
            verifier.deny(subscriber, "The feed is no longer available at this url.");
        }
    }

    /** Listens to every owner with topics (subscriptions made on other nodes) and renews their marks. */
    private void relisten() {
        List<Topics.Owner> owners = topics.owners();
        owners.forEach(owner -> listen(owner.kind(), owner.id()));
        Set<Long> current = owners.stream().map(Topics.Owner::id).collect(Collectors.toSet());
        listened.keySet().removeIf(owner -> {
            if (current.contains(owner)) {
                return false;
            }
            unlisten(listened.get(owner));
            return true;
        });
        if (!listened.isEmpty()) {
            home.listening(listened.values().stream().map(Listening::person).distinct().toList());
        }
    }

    private void unlisten(@Nullable Listening listening) {
        if (listening != null) {
            listening.channels().forEach(channel -> listeners.removeMessageListener(listening.listener(), channel));
        }
    }

    @Override
    public void start() {
        if (!runs) {
            return;
        }
        running = true;
        worker = Thread.ofVirtual().name("hub-topic-watch").start(this::run);
    }

    @Override
    public void stop() {
        running = false;
        if (worker != null) {
            worker.interrupt();
        }
        listened.values().forEach(this::unlisten);
        listened.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}

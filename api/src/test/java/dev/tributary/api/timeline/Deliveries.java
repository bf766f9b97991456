package dev.tributary.api.timeline;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * Puts items into people's inboxes the way the app does: a feed source, subscriptions, a
 * publish, and a wait (with a deadline) for the asynchronous fan-out to show them.
 */
public final class Deliveries {

    private static final AtomicInteger SECONDS = new AtomicInteger();
    private static final Instant BASE = Instant.now().minus(Duration.ofDays(1));

    private final ApiClient api;
    private final Sources sources;
    private final Subscriptions subscriptions;
    private final Publisher publisher;

    public Deliveries(ApiClient api, Sources sources, Subscriptions subscriptions, Publisher publisher) {
        this.api = api;
        this.sources = sources;
        this.subscriptions = subscriptions;
        this.publisher = publisher;
    }

    /** A new feed source nobody follows yet. */
    public long feed() {
        return sources.feed("https://feeds.example.test/" + UUID.randomUUID()).id();
    }

    public void follow(TestUser user, long sourceId) {
        subscriptions.subscribe(user.numericId(), sourceId, null);
    }

    /**
     * A new feed the reader and three other new people follow: a pulled source where
     * {@code tributary.fanout.pull-threshold} is 3.
     */
    public long pulledFeed(TestUser reader, String prefix) {
        long feed = feed();
        for (String name : List.of(prefix + "x", prefix + "y", prefix + "z")) {
            follow(api.newUser(name), feed);
        }
        follow(reader, feed);
        return feed;
    }

    /** An entry published later than every entry before it in this run (so ids come out in order). */
    public static NewItem entry(MediaType type, String... tags) {
        String guid = UUID.randomUUID().toString();
        return new NewItem(guid, "Title " + guid, "<p>Summary</p>", "https://example.test/" + guid, "author", type,
                List.of(), List.of(tags), BASE.plusSeconds(SECONDS.incrementAndGet()));
    }

    /** Publishes the entries; their ids, oldest published first (the publisher stores new entries in that order, not as given). */
    public List<Long> publish(long sourceId, NewItem... entries) {
        return publisher.publish(sourceId, List.of(entries)).created();
    }

    /** Publishes the entries and waits until every reader's home timeline shows them. */
    public List<Long> deliver(long sourceId, List<TestUser> readers, NewItem... entries) {
        List<Long> ids = publish(sourceId, entries);
        readers.forEach(reader -> awaitInTimeline(reader, ids));
        return ids;
    }

    public void awaitInTimeline(TestUser reader, List<Long> ids) {
        Await.until(ids + " in the home timeline of " + reader.username(), () -> timelineIds(reader).containsAll(ids));
    }

    /** The ids on the first page (100) of a person's home timeline. */
    public Set<Long> timelineIds(TestUser reader) {
        Set<Long> ids = new HashSet<>();
        for (JsonNode item : api.get("/api/v1/timelines/home?limit=100", reader.token()).json()) {
            ids.add(Long.parseLong(item.path("id").asString()));
        }
        return ids;
    }

    public static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.forEach(item -> ids.add(item.path("id").asString()));
        return ids;
    }
}

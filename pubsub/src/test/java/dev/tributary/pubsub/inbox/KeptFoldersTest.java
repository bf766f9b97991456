package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.Folder;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A node keeps each person's folders (for counting unread per folder) under a stamp of their
 * folders: read from MySQL once, and again after every change, never past one.
 */
@WithEmbeddedPubsub
class KeptFoldersTest {

    @Autowired Inbox inbox;
    @Autowired Folders folders;
    @Autowired Subscriptions subscriptions;
    @Autowired HomeFeed feed;
    @Autowired Fixtures fixtures;
    @Autowired StringRedisTemplate redis;

    private final AtomicInteger loads = new AtomicInteger();

    /** What the unread count's round trip reads, then the kept folders under it. */
    private Map<Long, Set<Long>> kept(long person) {
        String stamp = inbox.unreadAndPulledSources(person, id -> List.of()).foldersStamp();
        return inbox.folders(person, stamp, id -> {
            loads.incrementAndGet();
            return folders.sourcesByFolder(id);
        });
    }

    private void assertKeptIsTheTruth(long person, int expectedLoads) {
        assertThat(kept(person)).isEqualTo(folders.sourcesByFolder(person));
        assertThat(loads).hasValue(expectedLoads);
    }

    @Test
    void theFoldersAreReadOnceAndAgainAfterEveryChangeToThem() {
        long person = fixtures.person();
        long a = fixtures.feed();
        long b = fixtures.feed();
        fixtures.subscribe(a, List.of(person));
        fixtures.subscribe(b, List.of(person));

        assertKeptIsTheTruth(person, 1);
        assertKeptIsTheTruth(person, 1);

        Folder news = folders.create(person, "News");
        assertKeptIsTheTruth(person, 2);
        assertThat(kept(person)).containsKey(news.id());

        folders.file(person, a, List.of(news.id()));
        assertKeptIsTheTruth(person, 3);
        assertThat(kept(person).get(news.id())).containsExactly(a);

        folders.fileAll(person, Map.of(b, List.of(news.id())));
        assertKeptIsTheTruth(person, 4);
        assertThat(kept(person).get(news.id())).containsExactlyInAnyOrder(a, b);

        folders.rename(person, news.id(), "Aardvark news");
        assertKeptIsTheTruth(person, 5);

        subscriptions.unsubscribe(person, a);
        assertKeptIsTheTruth(person, 6);
        assertThat(kept(person).get(news.id())).containsExactly(b);

        folders.delete(person, news.id());
        assertKeptIsTheTruth(person, 7);
        assertThat(kept(person)).isEmpty();
    }

    @Test
    void aStampLostInRedisIsDrawnAgainAndTheFoldersReadAgain() {
        long person = fixtures.person();
        Folder tech = folders.create(person, "Tech");
        assertKeptIsTheTruth(person, 1);

        redis.delete(PageStamps.foldersKey(person));
        assertKeptIsTheTruth(person, 2);
        assertThat(kept(person)).containsOnlyKeys(tech.id());
        assertThat(loads).hasValue(2);
    }

    @Test
    void unreadByFolderCountsWithTheFoldersAsTheyAreNow() {
        long person = fixtures.person();
        long a = fixtures.feed();
        fixtures.subscribe(a, List.of(person));
        assertThat(feed.unreadByFolder(person).sourcesByFolder()).isEmpty();
        Folder filed = folders.create(person, "Filed");
        folders.file(person, a, List.of(filed.id()));
        assertThat(feed.unreadByFolder(person).sourcesByFolder()).isEqualTo(Map.of(filed.id(), Set.of(a)));
    }
}

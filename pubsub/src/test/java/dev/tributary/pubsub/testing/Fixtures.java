package dev.tributary.pubsub.testing;

import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Unread;
import dev.tributary.storage.IdGenerator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Builds test data on the shared database: fresh people, feeds and entries that no other test uses. */
@Component
public class Fixtures {

    private final IdGenerator ids;
    private final Sources sources;
    private final Subscriptions subscriptions;
    private final JdbcClient jdbc;

    public Fixtures(IdGenerator ids, Sources sources, Subscriptions subscriptions, JdbcClient jdbc) {
        this.ids = ids;
        this.sources = sources;
        this.subscriptions = subscriptions;
        this.jdbc = jdbc;
    }

    /** A fresh person id (people live in the API; pub/sub only knows their ids). */
    public long person() {
        return ids.next();
    }

    public List<Long> people(int count) {
        List<Long> people = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            people.add(person());
        }
        return people;
    }

    public long feed() {
        return sources.feed("https://example.test/feed/" + ids.next()).id();
    }

    public void subscribe(long sourceId, List<Long> people) {
        people.forEach(person -> subscriptions.subscribe(person, sourceId, null));
    }

    public void subscribe(long sourceId, long person, Set<MediaType> media) {
        subscriptions.subscribe(person, sourceId, media);
    }

    public void unsubscribe(long sourceId, long person) {
        subscriptions.unsubscribe(person, sourceId);
    }

    public static NewItem entry(String guid) {
        return entry(guid, MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z"));
    }

    public static NewItem entry(String guid, MediaType media, Instant published) {
        return new NewItem(guid, "title " + guid, "<p>summary of " + guid + "</p>", "https://example.test/" + guid,
                "someone", media, List.of(), List.of(), published);
    }

    /** {@code count} text entries {@code prefix0}, {@code prefix1}, …, a second apart. */
    public static List<NewItem> entries(String prefix, int count) {
        List<NewItem> entries = new java.util.ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entries.add(entry(prefix + i, MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z").plusSeconds(i)));
        }
        return entries;
    }

    public static NewItem tagged(String guid, String... tags) {
        return new NewItem(guid, "title " + guid, null, null, null, MediaType.TEXT, List.of(), List.of(tags),
                Instant.parse("2026-11-01T00:00:00Z"));
    }

    /** The lease token on the delivery task of an item; null when nobody holds it. */
    public Long leaseOf(long itemId) {
        return jdbc.sql("SELECT lease_token FROM fanout_tasks WHERE item_id = ?").param(itemId)
                .query((rs, n) -> (Long) rs.getObject(1, Long.class)).list().get(0);
    }

    /** Lets a fan-out task's lease run out now, as if its worker had died. */
    public void expireLease(long taskId) {
        jdbc.sql("UPDATE fanout_tasks SET lease_until = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE id = ?").param(taskId).update();
    }

    /** The (cursor, end) subscriber ranges of an item's delivery tasks. */
    public List<List<Long>> rangesOf(long itemId) {
        return jdbc.sql("SELECT cursor_user, end_user FROM fanout_tasks WHERE item_id = ?").param(itemId)
                .query((rs, n) -> List.of(rs.getLong(1), rs.getLong(2))).list();
    }

    /** The inbox rows of a person, by item id. */
    public List<Long> inbox(long person) {
        return jdbc.sql("SELECT item_id FROM inbox WHERE user_id = ? ORDER BY item_id").param(person).query(Long.class).list();
    }

    /** The truth unread counts are checked against: straight from the inbox, not through pub/sub code. */
    public Unread truth(long person) {
        long[] total = {0};
        Map<Long, Long> bySource = new HashMap<>();
        Map<MediaType, Long> byMedia = new EnumMap<>(MediaType.class);
        jdbc.sql("""
                SELECT source_id, media, COUNT(*) FROM inbox WHERE user_id = ? AND is_read = FALSE GROUP BY source_id, media
                """).param(person).query(rs -> {
                    total[0] += rs.getLong(3);
                    bySource.merge(rs.getLong(1), rs.getLong(3), Long::sum);
                    byMedia.merge(MediaType.ofBit(rs.getInt(2)), rs.getLong(3), Long::sum);
                });
        long trimmed = jdbc.sql("SELECT COALESCE(SUM(unread), 0) FROM inbox_trimmed WHERE user_id = ?").param(person)
                .query(Long.class).single();
        return new Unread(total[0], bySource, byMedia, trimmed);
    }
}

package dev.tributary.pubsub;

import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.storage.Entity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Who posted a link ("N people shared this"), through {@code link_shares}: a person's post with a
 * link is a share of that link's story (the same canonical link as a feed item's story), recorded
 * and removed in the post's publishing and tombstoning transactions. Group posts are never shares:
 * a group's items are its members' only.
 */
@Repository
public class LinkShares {

    /** People listed on an item; the count is exact beyond them. */
    public static final int MAX_LISTED = 10;

    private final JdbcClient jdbc;
    private final Inbox inbox;

    LinkShares(JdbcClient jdbc, Inbox inbox) {
        this.jdbc = jdbc;
        this.inbox = inbox;
    }

    /** One person who posted the link: their id and their own source (which names them). */
    public record Sharer(long userId, long sourceId) {
    }

    /** The people who posted an item's link, newest post first, at most {@link #MAX_LISTED}; {@code count} is all of them. */
    public record SharedBy(int count, List<Sharer> people) {

        public SharedBy {
            people = List.copyOf(people);
        }
    }

    /** Records the new posts of a person's source that carry a link; in the caller's (publishing) transaction. */
    void recordAll(long userId, long sourceId, List<Entity<Item>> posts) {
        List<Long> stories = new ArrayList<>();
        for (Entity<Item> post : posts) {
            Long story = storyOfLink(post.body().url());
            if (story != null) {
                jdbc.sql("INSERT IGNORE INTO link_shares (story, item_id, user_id, source_id) VALUES (?, ?, ?, ?)")
                        .params(story, post.id(), userId, sourceId).update();
                stories.add(story);
            }
        }
        inbox.storiesChanged(stories);
    }

    /** Removes the shares of these items (tombstoned); in the caller's transaction. */
    void removeAll(Collection<Long> itemIds) {
        if (itemIds.isEmpty()) {
            return;
        }
        List<Long> stories = jdbc.sql("SELECT story FROM link_shares WHERE item_id IN (:items) FOR UPDATE")
                .param("items", List.copyOf(itemIds)).query(Long.class).list();
        if (!stories.isEmpty()) {
            jdbc.sql("DELETE FROM link_shares WHERE item_id IN (:items)").param("items", List.copyOf(itemIds)).update();
            inbox.storiesChanged(stories);
        }
    }

    /**
     * The story whose sharers an item shows: its link's (people share links), else a feed item's own
     * (a permalink guid's, for an item without a link); null if none. Not always the item's story:
     * that may be its guid's ({@link Stories}), which no person's post carries.
     */
    public static @Nullable Long storyShown(Item item) {
        Long link = storyOfLink(item.url());
        return link != null ? link : item.story();
    }

    /**
     * The people who posted the link of each of these items that has sharers other than its own
     * author (a post's author is not listed on it). Two bounded queries for the whole page: at most
     * {@code MAX_LISTED + 1} rows a story, and the page's own shares by primary key.
     */
    public Map<Long, SharedBy> of(List<Stored<Item>> items) {
        Map<Long, Long> storyOf = new LinkedHashMap<>();
        for (Stored<Item> item : items) {
            Long story = storyShown(item.body());
            if (story != null) {
                storyOf.put(item.id(), story);
            }
        }
        if (storyOf.isEmpty()) {
            return Map.of();
        }
        Map<Long, List<Sharer>> newest = new HashMap<>();
        Map<Long, Integer> people = new HashMap<>();
        jdbc.sql("""
                SELECT story, source_id, user_id, people FROM (
                  SELECT story, source_id, user_id, COUNT(*) OVER (PARTITION BY story) AS people,
                         ROW_NUMBER() OVER (PARTITION BY story ORDER BY newest DESC) AS rn
                  FROM (SELECT story, source_id, MAX(user_id) AS user_id, MAX(item_id) AS newest
                        FROM link_shares WHERE story IN (:stories) GROUP BY story, source_id) AS per_person
                ) AS ranked WHERE rn <= :rows ORDER BY story, rn""")
                .param("stories", List.copyOf(new HashSet<>(storyOf.values()))).param("rows", MAX_LISTED + 1)
                .query((rs, n) -> {
                    long story = rs.getLong(1);
                    newest.computeIfAbsent(story, s -> new ArrayList<>()).add(new Sharer(rs.getLong(3), rs.getLong(2)));
                    people.put(story, rs.getInt(4));
                    return story;
                }).list();
        if (newest.isEmpty()) {
            return Map.of();
        }
        Set<Long> ownShares = ownShares(storyOf.keySet());
        Map<Long, SharedBy> result = new HashMap<>();
        for (Stored<Item> item : items) {
            Long story = storyOf.get(item.id());
            List<Sharer> sharers = story == null ? null : newest.get(story);
            if (sharers == null) {
                continue;
            }
            long author = item.body().sourceId();
            // A post's own share is its author's: every one of the author's posts of it counts as one person.
            int count = people.get(story) - (ownShares.contains(item.id()) ? 1 : 0);
            List<Sharer> listed = sharers.stream().filter(s -> s.sourceId() != author).limit(MAX_LISTED).toList();
            if (count > 0) {
                result.put(item.id(), new SharedBy(count, listed));
            }
        }
        return result;
    }

    /** Which of these items are shares themselves (posts with a link). */
    private Set<Long> ownShares(Collection<Long> itemIds) {
        return new HashSet<>(jdbc.sql("SELECT item_id FROM link_shares WHERE item_id IN (:items)")
                .param("items", List.copyOf(itemIds)).query(Long.class).list());
    }

    private static @Nullable Long storyOfLink(@Nullable String url) {
        return Stories.ofLink(url);
    }
}

package dev.tributary.pubsub;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The stories of a feed's new entries ({@link Stories}): each takes the first of its candidates
 * that no other entry of the feed holds, stored or in the same publish, so two entries of one
 * feed are never one story. Reads the {@code item_stories} index (PubsubKinds.ITEM_STORIES) in
 * the publishing transaction, which holds the source's publish lock: no other publish of the
 * feed can take a story between the read and the insert.
 */
@Repository
class FeedStories {

    private final JdbcClient jdbc;

    FeedStories(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The story of each of the {@code fresh} entries (by guid) of a feed source; absent: none. */
    Map<String, Long> assign(long sourceId, Source source, Collection<NewItem> document, Collection<NewItem> fresh) {
        Map<String, List<Long>> candidates = Stories.candidates(source.siteUrl(), source.url(), document, fresh);
        Set<Long> taken = held(sourceId, candidates.values().stream().flatMap(List::stream).distinct().toList());
        Map<String, Long> stories = new LinkedHashMap<>();
        candidates.forEach((guid, of) -> {
            Long story = first(of, taken);
            if (story != null) {
                taken.add(story);
                stories.put(guid, story);
            }
        });
        return stories;
    }

    private static @Nullable Long first(List<Long> candidates, Set<Long> taken) {
        for (Long story : candidates) {
            if (!taken.contains(story)) {
                return story;
            }
        }
        return null;
    }

    /** Which of these stories items of the source hold already. */
    private Set<Long> held(long sourceId, List<Long> stories) {
        Set<Long> held = new HashSet<>();
        for (int from = 0; from < stories.size(); from += 1000) {
            List<Long> chunk = new ArrayList<>(stories.subList(from, Math.min(stories.size(), from + 1000)));
            held.addAll(jdbc.sql("SELECT DISTINCT story FROM item_stories WHERE source_id = :source AND story IN (:stories)")
                    .param("source", sourceId).param("stories", chunk).query(Long.class).list());
        }
        return held;
    }
}

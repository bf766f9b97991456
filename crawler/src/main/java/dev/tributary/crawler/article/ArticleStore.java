package dev.tributary.crawler.article;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of {@code item_articles}: one row per item, an article or the failure of its fetch. */
@Repository
public class ArticleStore {

    /** Ids per look-up statement. */
    private static final int IN_LIST = 500;

    /**
     * One item's row.
     *
     * @param byline who wrote the article (plain text), null if the page does not say
     * @param html the sanitised article, null for a failure
     * @param failure the failure's reason name, null for an article
     */
    public record Row(long itemId, Instant fetchedAt, String url, @Nullable String title, @Nullable String byline, @Nullable String html,
            boolean truncated, @Nullable String failure, @Nullable String detail) {
    }

    private final JdbcClient jdbc;

    ArticleStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<Row> find(long itemId) {
        return jdbc.sql("SELECT * FROM item_articles WHERE item_id = ?").param(itemId).query(ArticleStore::row).optional();
    }

    /** The articles (not failures) of these items fetched after {@code since}, by item id. */
    public Map<Long, Row> articles(Collection<Long> itemIds, Instant since) {
        Map<Long, Row> found = new HashMap<>();
        List<Long> ids = List.copyOf(itemIds);
        for (int from = 0; from < ids.size(); from += IN_LIST) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + IN_LIST));
            jdbc.sql("SELECT * FROM item_articles WHERE item_id IN (:ids) AND html IS NOT NULL AND fetched_at > :since")
                    .param("ids", chunk).param("since", Timestamp.from(since))
                    .query(ArticleStore::row).list().forEach(row -> found.put(row.itemId(), row));
        }
        return found;
    }

    /** Which of these items have a row fetched after {@code since} (article or failure). */
    public List<Long> known(Collection<Long> itemIds, Instant since) {
        if (itemIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("SELECT item_id FROM item_articles WHERE item_id IN (:ids) AND fetched_at > :since")
                .param("ids", List.copyOf(itemIds)).param("since", Timestamp.from(since)).query(Long.class).list();
    }

    /** Writes the item's row, replacing an older one. */
    public void save(Row row) {
        jdbc.sql("""
                INSERT INTO item_articles (item_id, fetched_at, url, title, byline, html, truncated, failure, detail)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON DUPLICATE KEY UPDATE fetched_at = VALUES(fetched_at), url = VALUES(url), title = VALUES(title),
                    byline = VALUES(byline),
                    html = VALUES(html), truncated = VALUES(truncated), failure = VALUES(failure), detail = VALUES(detail)
                """)
                .params(row.itemId(), Timestamp.from(row.fetchedAt()), row.url(), row.title(), row.byline(), row.html(), row.truncated(),
                        row.failure(), row.detail())
                .update();
    }

    /** Removes at most {@code limit} rows fetched before {@code cutoff}, oldest first (one statement); how many went. */
    public int removeOlderThan(Instant cutoff, int limit) {
        return jdbc.sql("DELETE FROM item_articles WHERE fetched_at < ? ORDER BY fetched_at LIMIT ?")
                .params(Timestamp.from(cutoff), limit).update();
    }

    /** Records or withdraws the person's wish that the source's articles be fetched ahead of readers. */
    public void wantFull(long userId, long sourceId, boolean wanted) {
        if (wanted) {
            jdbc.sql("INSERT IGNORE INTO article_readers (source_id, user_id) VALUES (?, ?)").params(sourceId, userId).update();
        } else {
            jdbc.sql("DELETE FROM article_readers WHERE source_id = ? AND user_id = ?").params(sourceId, userId).update();
        }
    }

    /** The sources the person wants read in full. */
    public List<Long> fullSources(long userId) {
        return jdbc.sql("SELECT source_id FROM article_readers WHERE user_id = ?").param(userId).query(Long.class).list();
    }

    /** Up to {@code limit} people who want the source read in full. */
    public List<Long> fullReaders(long sourceId, int limit) {
        return jdbc.sql("SELECT user_id FROM article_readers WHERE source_id = ? LIMIT ?").params(sourceId, limit)
                .query(Long.class).list();
    }

    private static Row row(ResultSet rs, int n) throws SQLException {
        return new Row(rs.getLong("item_id"), rs.getTimestamp("fetched_at").toInstant(), rs.getString("url"),
                rs.getString("title"), rs.getString("byline"), rs.getString("html"), rs.getBoolean("truncated"), rs.getString("failure"),
                rs.getString("detail"));
    }
}

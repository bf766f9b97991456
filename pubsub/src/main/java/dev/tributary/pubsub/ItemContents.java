package dev.tributary.pubsub;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The feed's own full content of items ({@code item_contents}): once per item, never per
 * subscriber, deflated at rest. Written by {@link Publisher} in its transactions; read by the
 * item view and the reader APIs for the items they show.
 */
@Repository
public class ItemContents {

    /** Ids per look-up statement. */
    private static final int IN_LIST = 500;
    /** What a damaged row may inflate to: the bound with room for multi-byte characters' worst case. */
    private static final int MAX_INFLATED = 4 * ItemContent.MAX_BYTES;

    private final JdbcClient jdbc;

    ItemContents(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The item's content, if its feed gave one. */
    public Optional<ItemContent> find(long itemId) {
        return jdbc.sql("SELECT item_id, body, truncated FROM item_contents WHERE item_id = ?").param(itemId)
                .query(ItemContents::row).optional().map(Map.Entry::getValue);
    }

    /** The contents of those of these items that have one, by item id. */
    public Map<Long, ItemContent> findAll(Collection<Long> itemIds) {
        Map<Long, ItemContent> found = new HashMap<>();
        List<Long> ids = List.copyOf(itemIds);
        for (int from = 0; from < ids.size(); from += IN_LIST) {
            jdbc.sql("SELECT item_id, body, truncated FROM item_contents WHERE item_id IN (:ids)")
                    .param("ids", ids.subList(from, Math.min(ids.size(), from + IN_LIST)))
                    .query(ItemContents::row).list().forEach(row -> found.put(row.getKey(), row.getValue()));
        }
        return found;
    }

    /** The digests of these items' stored contents, to tell a changed content from the same one. */
    Map<Long, byte[]> digests(Collection<Long> itemIds) {
        Map<Long, byte[]> found = new HashMap<>();
        List<Long> ids = List.copyOf(itemIds);
        for (int from = 0; from < ids.size(); from += IN_LIST) {
            jdbc.sql("SELECT item_id, digest FROM item_contents WHERE item_id IN (:ids)")
                    .param("ids", ids.subList(from, Math.min(ids.size(), from + IN_LIST)))
                    .query((rs, n) -> Map.entry(rs.getLong(1), rs.getBytes(2))).list()
                    .forEach(row -> found.put(row.getKey(), row.getValue()));
        }
        return found;
    }

    /** Whether storing {@code content} would change what is stored under this digest (null: nothing stored). */
    static boolean differs(byte @Nullable [] stored, @Nullable ItemContent content) {
        return content == null ? stored != null : stored == null || !Arrays.equals(stored, digest(content));
    }

    /** Writes, replaces or (for null) removes the item's content; in the caller's transaction. */
    void save(long itemId, @Nullable ItemContent content) {
        if (content == null) {
            removeAll(List.of(itemId));
            return;
        }
        jdbc.sql("""
                INSERT INTO item_contents (item_id, body, truncated, digest) VALUES (?, ?, ?, ?)
                ON DUPLICATE KEY UPDATE body = VALUES(body), truncated = VALUES(truncated), digest = VALUES(digest)
                """)
                .params(itemId, deflate(content.html().getBytes(StandardCharsets.UTF_8)), content.truncated(), digest(content))
                .update();
    }

    /** Removes these items' contents (their tombstones keep none); in the caller's transaction. */
    void removeAll(Collection<Long> itemIds) {
        if (!itemIds.isEmpty()) {
            jdbc.sql("DELETE FROM item_contents WHERE item_id IN (:ids)").param("ids", List.copyOf(itemIds)).update();
        }
    }

    static byte[] digest(ItemContent content) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update((byte) (content.truncated() ? 1 : 0));
            return sha.digest(content.html().getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static byte[] deflate(byte[] raw) {
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            deflater.setInput(raw);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 3 + 64);
            byte[] buffer = new byte[16 * 1024];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    private static String inflate(long itemId, byte[] body) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(body);
            ByteArrayOutputStream out = new ByteArrayOutputStream(body.length * 3);
            byte[] buffer = new byte[16 * 1024];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalStateException("content of item " + itemId + " is cut short");
                }
                out.write(buffer, 0, n);
                if (out.size() > MAX_INFLATED) {
                    throw new IllegalStateException("content of item " + itemId + " inflates beyond " + MAX_INFLATED + " bytes");
                }
            }
            return out.toString(StandardCharsets.UTF_8);
        } catch (DataFormatException e) {
            throw new IllegalStateException("content of item " + itemId + " is damaged", e);
        } finally {
            inflater.end();
        }
    }

    private static Map.Entry<Long, ItemContent> row(ResultSet rs, int n) throws SQLException {
        long id = rs.getLong("item_id");
        return Map.entry(id, new ItemContent(inflate(id, rs.getBytes("body")), rs.getBoolean("truncated")));
    }
}

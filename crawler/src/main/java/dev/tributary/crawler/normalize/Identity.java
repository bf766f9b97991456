package dev.tributary.crawler.normalize;

import dev.tributary.crawler.parse.ParsedFeed.Entry;
import dev.tributary.crawler.parse.ParsedFeed.Media;
import dev.tributary.crawler.parse.ParsedFeed.Text;
import dev.tributary.pubsub.NewItem;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/**
 * An entry's guid: its own id (guid, atom:id, rdf:about, JSON id) as written, else its absolute
 * link, else a hash of what it says. An id or link outlives edits to the entry, so an edited entry
 * keeps its guid and is updated in place; only an entry with neither changes identity when edited.
 */
final class Identity {

    static final String HASH_PREFIX = "sha256:";

    private Identity() {
    }

    /** The guid, or null for an entry with nothing to tell it by (no id, link, title, text, date, author, category or media). */
    static @Nullable String guid(Entry entry, @Nullable String absoluteLink) {
        String id = entry.id() == null ? "" : entry.id().strip();
        if (!id.isEmpty()) {
            return fit(id);
        }
        if (absoluteLink != null) {
            return fit(absoluteLink);
        }
        String content = contentKey(entry);
        return content.isEmpty() ? null : hash(content);
    }

    /** Title, text, date, author, categories and media urls: what an entry without id or link is. */
    private static String contentKey(Entry entry) {
        StringBuilder key = new StringBuilder();
        append(key, entry.title());
        append(key, entry.summary());
        append(key, entry.content());
        if (entry.published() != null || entry.updated() != null) {
            key.append(entry.published() != null ? entry.published() : entry.updated()).append('\n');
        }
        if (entry.author() != null && !entry.author().isBlank()) {
            key.append(entry.author()).append('\n');
        }
        for (String category : entry.categories()) {
            key.append(category).append('\n');
        }
        for (Media media : entry.media()) {
            key.append(media.url()).append('\n');
        }
        return key.toString();
    }

    private static void append(StringBuilder key, @Nullable Text text) {
        if (text != null) {
            key.append(text.value()).append('\n');
        }
    }

    /** Itself if it fits a guid; hashed if longer. */
    private static String fit(String guid) {
        return guid.length() <= NewItem.MAX_GUID_LENGTH ? guid : hash(guid);
    }

    static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HASH_PREFIX + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}

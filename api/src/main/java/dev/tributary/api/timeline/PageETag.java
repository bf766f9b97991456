package dev.tributary.api.timeline;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.item.ItemView;
import dev.tributary.pubsub.TimelineEntry;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.regex.Pattern;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The weak validator of a timeline page, from what the page shows: each entry's id, last write
 * of its item, read and starred flags, reaction counts and also_in. It changes whenever the page's JSON would, without
 * serialising the page twice; {@code If-None-Match} is compared weakly (RFC 9110 §13.1.2).
 */
final class PageETag {

    private PageETag() {
    }

    static String of(List<TimelineEntry> entries, List<ItemView> views) {
        ByteBuffer buffer = ByteBuffer.allocate(8 + entries.size() * 42);
        buffer.putLong(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            TimelineEntry entry = entries.get(i);
            ItemView view = views.get(i);
            Instant updated = entry.item().updated();
            buffer.putLong(entry.id()).putLong(updated.getEpochSecond()).putInt(updated.getNano())
                    .put((byte) (view.read() ? 1 : 0)).putLong(view.likesCount()).putLong(view.commentsCount())
                    .put((byte) (view.starred() ? 1 : 0)).putInt(view.alsoIn().hashCode());
        }
        return "W/\"" + HexFormat.of().formatHex(sha256(buffer.array()), 0, 16) + "\"";
    }

    /** RFC 9110 §13.1.2: {@code *}, or entity tags ({@code W/} optional, quoted, no quote inside) separated by commas. */
    private static final Pattern IF_NONE_MATCH = Pattern.compile(
            "\\s*(\\*|(W/)?\"[\\x21\\x23-\\x7E\\x80-\\xFF]*\"(\\s*,\\s*(W/)?\"[\\x21\\x23-\\x7E\\x80-\\xFF]*\")*)\\s*");

    /** Whether an {@code If-None-Match} header names this tag (or is {@code *}); a malformed header is a 400. */
    static boolean matches(@Nullable String ifNoneMatch, String etag) {
        if (ifNoneMatch == null || ifNoneMatch.isBlank()) {
            return false;
        }
        if (!IF_NONE_MATCH.matcher(ifNoneMatch).matches()) {
            // A garbled header would otherwise never match and silently cost the client a full page.
            throw ApiProblem.invalid("If-None-Match", "must be * or a comma-separated list of entity tags such as W/\"…\"");
        }
        String opaque = opaque(etag);
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.strip();
            if (tag.equals("*") || opaque(tag).equals(opaque)) {
                return true;
            }
        }
        return false;
    }

    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}

package dev.tributary.api.timeline;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Unread;
import dev.tributary.api.web.Ids;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A person's unread counts as API.md shows them:
 * {@code {total, by_source: {"<id>": n}, by_media: {"text": n}, by_folder: {"<id>": n}, trimmed_unread}},
 * over the whole unread horizon (not only the home timeline's window). A folder's count is the sum
 * of the exact counts of the sources filed in it, so it is exact too.
 */
@Schema(description = "Exact unread counts over the unread horizon: every entry the inbox keeps "
        + "(tributary.inbox.keep, default 30 days, at most tributary.inbox.max-entries, default 10,000), "
        + "not only the newest entries the home timeline shows.")
public record UnreadView(
        @Schema(description = "Unread entries in the horizon.") long total,
        @Schema(description = "Unread entries per source id (ids as strings); sources with none are left out.")
        Map<String, Long> bySource,
        @Schema(description = "Unread entries per media type (text, link, image, video, audio); zeros are left out.")
        Map<String, Long> byMedia,
        @Schema(description = "Unread entries the inbox has dropped, ever: past tributary.inbox.max-entries "
                + "(read entries are dropped first) or older than tributary.inbox.keep. 0 when nothing unread was lost.")
        long trimmedUnread,
        @Schema(description = "Unread entries per folder id of the caller's (ids as strings): the sum of by_source over "
                + "the sources filed in it; folders with none are left out.")
        Map<String, Long> byFolder) {

    /** The counts with each folder's, as {@link HomeFeed#unreadByFolder} reads them. */
    public static UnreadView of(HomeFeed.UnreadByFolder unread) {
        return of(unread.unread(), unread.sourcesByFolder());
    }

    /** The counts with each folder's: {@code sourcesByFolder} maps each of the person's folders to its sources. */
    public static UnreadView of(Unread unread, Map<Long, ? extends Collection<Long>> sourcesByFolder) {
        Map<String, Long> bySource = new LinkedHashMap<>();
        unread.bySource().forEach((source, count) -> bySource.put(Ids.format(source), count));
        Map<String, Long> byMedia = new LinkedHashMap<>();
        for (MediaType type : MediaType.values()) {
            Long count = unread.byMedia().get(type);
            if (count != null) {
                byMedia.put(type.wireName(), count);
            }
        }
        Map<String, Long> byFolder = new LinkedHashMap<>();
        sourcesByFolder.forEach((folder, sources) -> {
            long count = sources.stream().mapToLong(source -> unread.bySource().getOrDefault(source, 0L)).sum();
            if (count > 0) {
                byFolder.put(Ids.format(folder), count);
            }
        });
        return new UnreadView(unread.total(), bySource, byMedia, unread.trimmedUnread(), byFolder);
    }
}

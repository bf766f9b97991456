package dev.tributary.api.timeline;

import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Unread;
import dev.tributary.api.web.Ids;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A person's unread counts as API.md shows them:
 * {@code {total, by_source: {"<id>": n}, by_media: {"text": n}, trimmed_unread}}, over the whole
 * unread horizon (not only the home timeline's window).
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
        long trimmedUnread) {

    public static UnreadView of(Unread unread) {
        Map<String, Long> bySource = new LinkedHashMap<>();
        unread.bySource().forEach((source, count) -> bySource.put(Ids.format(source), count));
        Map<String, Long> byMedia = new LinkedHashMap<>();
        for (MediaType type : MediaType.values()) {
            Long count = unread.byMedia().get(type);
            if (count != null) {
                byMedia.put(type.wireName(), count);
            }
        }
        return new UnreadView(unread.total(), bySource, byMedia, unread.trimmedUnread());
    }
}

package dev.tributary.api.timeline;

import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Unread;
import dev.tributary.api.web.Ids;
import java.util.LinkedHashMap;
import java.util.Map;

/** A person's unread counts as API.md shows them: {@code {total, by_source: {"<id>": n}, by_media: {"text": n}}}. */
public record UnreadView(long total, Map<String, Long> bySource, Map<String, Long> byMedia) {

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
        return new UnreadView(unread.total(), bySource, byMedia);
    }
}

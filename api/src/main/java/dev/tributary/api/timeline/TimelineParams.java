package dev.tributary.api.timeline;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import dev.tributary.api.web.Paging;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.TimelineQuery;
import java.util.EnumSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Parses the home timeline's query parameters; a bad one is a 400 naming it. */
final class TimelineParams {

    static final int MAX_TAG_LENGTH = 100;

    private TimelineParams() {
    }

    static TimelineQuery query(Paging paging, @Nullable String media, @Nullable String tag, @Nullable String sourceId,
            @Nullable String unread) {
        return new TimelineQuery(paging.maxId(), paging.sinceId(), paging.minId(), paging.limit(), media(media),
                tag(tag), Ids.optional("source_id", sourceId), unread(unread));
    }

    /** {@code media=text,image}: any of the media types, comma-separated; empty means all. */
    static @Nullable Set<MediaType> media(@Nullable String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        Set<MediaType> types = EnumSet.noneOf(MediaType.class);
        for (String name : value.split(",", -1)) {
            String trimmed = name.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            types.add(MediaType.parse(trimmed).orElseThrow(() ->
                    ApiProblem.invalid("media", "must be a comma-separated list of text, link, image, video, audio")));
        }
        return types.isEmpty() ? null : types;
    }

    static @Nullable String tag(@Nullable String value) {
        if (value != null && value.length() > MAX_TAG_LENGTH) {
            throw ApiProblem.invalid("tag", "must be at most " + MAX_TAG_LENGTH + " characters");
        }
        return value;
    }

    static boolean unread(@Nullable String value) {
        if (value == null || value.isEmpty() || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw ApiProblem.invalid("unread", "must be true or false");
    }
}

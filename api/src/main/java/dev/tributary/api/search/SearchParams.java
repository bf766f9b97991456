package dev.tributary.api.search;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.pubsub.InvalidSearchException;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.SearchCursor;
import dev.tributary.pubsub.SearchQuery;
import dev.tributary.pubsub.SearchText;
import java.util.EnumSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** The search's query parameters, checked: a bad one is a 400 naming it (and for {@code q}, a {@code reason}). */
record SearchParams(SearchText text, int limit, @Nullable SearchCursor cursor, @Nullable Set<MediaType> media,
        @Nullable String tag, boolean unread) {

    static final int MAX_TAG_LENGTH = 100;

    static SearchParams of(@Nullable String q, int limit, @Nullable String cursor, @Nullable String media,
            @Nullable String tag, @Nullable String unread) {
        return new SearchParams(text(q), limit, cursor(cursor), media(media), tag(tag), unread(unread));
    }

    SearchQuery query(@Nullable Set<Long> sourceIds) {
        return new SearchQuery(text, limit, cursor, media, tag, sourceIds, unread);
    }

    /** The query's words; what no search can serve is a 400 with the domain's reason beside the field. */
    static SearchText text(@Nullable String q) {
        try {
            return SearchText.parse(q == null ? "" : q);
        } catch (InvalidSearchException e) {
            throw problem(e);
        }
    }

    /** A refused query as the 400 the API answers: the field {@code q}, what is wrong, and the stable reason. */
    static ApiProblem problem(InvalidSearchException e) {
        ApiProblem problem = ApiProblem.invalid("q", e.problem());
        problem.getBody().setProperty("reason", e.reason().wireName());
        return problem;
    }

    private static @Nullable SearchCursor cursor(@Nullable String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        return SearchCursor.parse(value).orElseThrow(() ->
                ApiProblem.invalid("cursor", "must be a cursor from a Link header of this search"));
    }

    /** {@code media=text,image}: any of the media types, comma-separated; empty means all. */
    private static @Nullable Set<MediaType> media(@Nullable String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        Set<MediaType> types = EnumSet.noneOf(MediaType.class);
        for (String name : value.split(",", -1)) {
            String trimmed = name.strip();
            if (!trimmed.isEmpty()) {
                types.add(MediaType.parse(trimmed).orElseThrow(() ->
                        ApiProblem.invalid("media", "must be a comma-separated list of text, link, image, video, audio")));
            }
        }
        return types.isEmpty() ? null : types;
    }

    private static @Nullable String tag(@Nullable String value) {
        if (value != null && value.length() > MAX_TAG_LENGTH) {
            throw ApiProblem.invalid("tag", "must be at most " + MAX_TAG_LENGTH + " characters");
        }
        return value;
    }

    private static boolean unread(@Nullable String value) {
        if (value == null || value.isEmpty() || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw ApiProblem.invalid("unread", "must be true or false");
    }
}

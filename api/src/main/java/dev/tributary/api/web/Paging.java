package dev.tributary.api.web;

import org.jspecify.annotations.Nullable;

/**
 * The paging parameters of every list: {@code limit} (default 20, at most 100), {@code max_id}
 * (older than), {@code since_id} (newer than, the newest such) and {@code min_id} (immediately
 * newer than, the oldest such).
 */
public record Paging(@Nullable Long maxId, @Nullable Long sinceId, @Nullable Long minId, int limit) {

    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    /** Parses the raw query parameters; a bad one is a 400 naming it. */
    public static Paging of(@Nullable String limit, @Nullable String maxId, @Nullable String sinceId, @Nullable String minId) {
        return new Paging(cursor("max_id", maxId), cursor("since_id", sinceId), cursor("min_id", minId), limit(limit));
    }

    /** A cursor sent empty ({@code since_id=}) is refused as the contract's id pattern does, not read as absent. */
    private static @Nullable Long cursor(String field, @Nullable String value) {
        if (value != null && value.isEmpty()) {
            throw ApiProblem.invalid(field, "must be an id (a positive decimal number); leave the parameter out for none");
        }
        return Ids.optional(field, value);
    }

    private static int limit(@Nullable String value) {
        if (value == null || value.isEmpty()) {
            return DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(value);
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException notANumber) {
            // reported below, like an out-of-range number
        }
        throw ApiProblem.invalid("limit", "must be a whole number from 1 to " + MAX_LIMIT);
    }
}

package dev.tributary.pubsub;

import java.util.Optional;

/**
 * Where a page of search hits ends: the last hit's score and id. Hits are ordered by score, then
 * newest first, so the next page is what ranks below this pair; written {@code <score>.<id>}.
 */
public record SearchCursor(long score, long itemId) {

    public SearchCursor {
        if (score < 0 || itemId <= 0) {
            throw new IllegalArgumentException("a cursor is a score of 0 or more and a positive id");
        }
    }

    /** The cursor written as {@link #toString} gives it; empty for anything else. */
    public static Optional<SearchCursor> parse(String value) {
        int dot = value.indexOf('.');
        if (dot < 1 || dot > 9 || value.length() - dot - 1 > 19 || value.length() - dot - 1 < 1) {
            return Optional.empty();
        }
        String score = value.substring(0, dot);
        String id = value.substring(dot + 1);
        if (!score.chars().allMatch(c -> c >= '0' && c <= '9') || !id.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        try {
            long itemId = Long.parseLong(id);
            return itemId > 0 ? Optional.of(new SearchCursor(Long.parseLong(score), itemId)) : Optional.empty();
        } catch (NumberFormatException tooLarge) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return score + "." + itemId;
    }
}

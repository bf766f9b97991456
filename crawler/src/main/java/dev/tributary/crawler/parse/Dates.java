package dev.tributary.crawler.parse;

import java.time.Instant;
import java.util.Date;
import org.jspecify.annotations.Nullable;

/** Dates as the parser hands them on: instants, null where the feed had none or garbage. */
final class Dates {

    private Dates() {
    }

    static @Nullable Instant instant(@Nullable Date date) {
        return date == null ? null : date.toInstant();
    }

    /** A JSON Feed's date: RFC 3339 as the format says, or any form {@link FeedDates} reads; null if unreadable. */
    static @Nullable Instant rfc3339(@Nullable String text) {
        return FeedDates.parse(text);
    }
}

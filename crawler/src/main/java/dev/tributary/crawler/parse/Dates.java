package dev.tributary.crawler.parse;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Date;
import org.jspecify.annotations.Nullable;

/** Dates as the parser hands them on: instants, null where the feed had none or garbage. */
final class Dates {

    private Dates() {
    }

    static @Nullable Instant instant(@Nullable Date date) {
        return date == null ? null : date.toInstant();
    }

    /** An RFC 3339 date (JSON Feed), with or without an offset read as UTC; null if unreadable. */
    static @Nullable Instant rfc3339(@Nullable String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String trimmed = text.strip();
        try {
            return OffsetDateTime.parse(trimmed).toInstant();
        } catch (DateTimeParseException notOffset) {
            try {
                return Instant.parse(trimmed + (trimmed.length() == 10 ? "T00:00:00Z" : "Z"));
            } catch (DateTimeParseException unreadable) {
                return null;
            }
        }
    }
}

package dev.tributary.crawler.fetch;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Reads the response headers that tell when to fetch again: {@code Cache-Control},
 * {@code Expires} and {@code Retry-After}. Unparseable values read as absent, never as errors.
 */
final class CacheHeaders {

    // RFC 9110 5.6.7: recipients must accept all three forms of HTTP-date.
    private static final DateTimeFormatter RFC_1123 = DateTimeFormatter.RFC_1123_DATE_TIME;
    private static final DateTimeFormatter RFC_850 = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendPattern("EEEE, dd-MMM-")
            .appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
            .appendPattern(" HH:mm:ss 'GMT'")
            .toFormatter(Locale.US);
    private static final DateTimeFormatter ASCTIME = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendPattern("EEE MMM")
            .appendLiteral(' ')
            .optionalStart().appendLiteral(' ').optionalEnd()
            .appendPattern("d HH:mm:ss yyyy")
            .toFormatter(Locale.US);

    private CacheHeaders() {
    }

    /**
     * The freshness lifetime from {@code Cache-Control} values: {@code s-maxage} over
     * {@code max-age} (a crawler is a shared cache), and zero for {@code no-cache}/{@code no-store}.
     */
    static @Nullable Duration maxAge(List<String> cacheControl) {
        Long maxAge = null;
        Long sMaxAge = null;
        for (String value : cacheControl) {
            for (String directive : value.split(",")) {
                int eq = directive.indexOf('=');
                String name = (eq < 0 ? directive : directive.substring(0, eq)).strip().toLowerCase(Locale.ROOT);
                switch (name) {
                    case "no-cache", "no-store" -> {
                        return Duration.ZERO;
                    }
                    case "max-age" -> maxAge = eq < 0 ? maxAge : firstNonNull(deltaSeconds(directive.substring(eq + 1)), maxAge);
                    case "s-maxage" -> sMaxAge = eq < 0 ? sMaxAge : firstNonNull(deltaSeconds(directive.substring(eq + 1)), sMaxAge);
                    default -> {
                    }
                }
            }
        }
        Long seconds = sMaxAge != null ? sMaxAge : maxAge;
        return seconds == null ? null : Duration.ofSeconds(seconds);
    }

    /** {@code Retry-After} as a wait from now: delta-seconds or an HTTP-date (a past date waits zero). */
    static @Nullable Duration retryAfter(@Nullable String value, Clock clock) {
        if (value == null) {
            return null;
        }
        Long seconds = deltaSeconds(value);
        if (seconds != null) {
            return Duration.ofSeconds(seconds);
        }
        Instant at = httpDate(value);
        if (at == null) {
            return null;
        }
        Duration wait = Duration.between(clock.instant(), at);
        return wait.isNegative() ? Duration.ZERO : wait;
    }

    static @Nullable Instant httpDate(@Nullable String value) {
        if (value == null) {
            return null;
        }
        String text = value.strip();
        if (text.isEmpty() || text.length() > 64) {
            return null;
        }
        try {
            return ZonedDateTime.parse(text, RFC_1123).toInstant();
        } catch (DateTimeException e) {
            // try the obsolete forms below
        }
        try {
            return LocalDateTime.parse(text, RFC_850).toInstant(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            // try asctime below
        }
        try {
            return LocalDateTime.parse(text, ASCTIME).toInstant(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** A non-negative integer number of seconds, tolerating quotes; absurdly long values are capped. */
    private static @Nullable Long deltaSeconds(String raw) {
        String text = raw.strip();
        if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
            text = text.substring(1, text.length() - 1);
        }
        if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        // RFC 9111 1.2.2: a delta-seconds too large to represent means "a very long time".
        if (text.length() > 10) {
            return (long) Integer.MAX_VALUE;
        }
        return Math.min(Long.parseLong(text), Integer.MAX_VALUE);
    }

    private static @Nullable Long firstNonNull(@Nullable Long first, @Nullable Long second) {
        return first != null ? first : second;
    }
}

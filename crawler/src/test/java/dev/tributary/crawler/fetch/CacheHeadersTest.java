package dev.tributary.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Freshness and back-off read from response headers; junk reads as absent. */
class CacheHeadersTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("1994-11-06T08:49:00Z"), ZoneOffset.UTC);

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"max-age=600|PT10M", "public, max-age=60|PT1M", "MAX-AGE = 30|PT30S", "max-age=\"90\"|PT1M30S",
            "max-age=60, s-maxage=300|PT5M", "s-maxage=5, max-age=60|PT5S", "private, max-age=0|PT0S", "max-age=60, no-cache|PT0S",
            "no-store|PT0S", "no-cache=\"Set-Cookie\", max-age=60|PT0S", "max-age=99999999999999999999|PT596523H14M7S"})
    void readsMaxAge(String cacheControl, Duration expected) {
        assertThat(CacheHeaders.maxAge(List.of(cacheControl))).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "public", "max-age", "max-age=", "max-age=-1", "max-age=1.5", "max-age=ten", ",,,", "must-revalidate"})
    void readsNoMaxAgeFromJunk(String cacheControl) {
        assertThat(CacheHeaders.maxAge(List.of(cacheControl))).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"Sun, 06 Nov 1994 08:49:37 GMT|1994-11-06T08:49:37Z", "Sunday, 06-Nov-94 08:49:37 GMT|1994-11-06T08:49:37Z",
            "Sun Nov  6 08:49:37 1994|1994-11-06T08:49:37Z", "Thu, 01 Jan 1970 00:00:00 GMT|1970-01-01T00:00:00Z"})
    void readsAllThreeHttpDateForms(String text, Instant expected) {
        assertThat(CacheHeaders.httpDate(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "0", "-1", "tomorrow", "2026-03-01T12:00:00Z", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT"})
    void readsNoDateFromJunk(String text) {
        assertThat(CacheHeaders.httpDate(text)).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"120|PT2M", "0|PT0S", " 30 |PT30S", "Sun, 06 Nov 1994 08:50:00 GMT|PT1M",
            "Sun, 06 Nov 1994 08:00:00 GMT|PT0S"})
    void readsRetryAfterAsSecondsOrADateFromTheClock(String value, Duration expected) {
        assertThat(CacheHeaders.retryAfter(value, CLOCK)).isEqualTo(expected);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "-5", "soon", "1.5"})
    void readsNoRetryAfterFromJunk(String value) {
        assertThat(CacheHeaders.retryAfter(value, CLOCK)).isNull();
    }
}

package dev.tributary.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.parse.ParsedFeed.Entry;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Dates read as feedparser 6.0 reads them (datetimes/rfc822.py, asctime.py, w3dtf.py): each
 * expected instant below is feedparser's {@code published_parsed} for the same text, except the
 * Unix times, which feedparser does not read and feeds do write.
 */
class FeedDatesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Tue, 03 Jun 2025 08:30:00 GMT | 2025-06-03T08:30:00Z",
        "Tue, 3 Jun 2025 08:30:00 +0200 | 2025-06-03T06:30:00Z",
        "Tue, 03 Jun 2025 08:30:00 EST | 2025-06-03T13:30:00Z",
        "Wed, 11 Nov 09 13:28:18 +0800 | 2009-11-11T05:28:18Z",
        "Mon, 01 Mar 99 00:00:00 GMT | 1999-03-01T00:00:00Z",
        "11 Nov 2009 13:28 | 2009-11-11T13:28:00Z",
        "11 Nov 2009 | 2009-11-11T00:00:00Z",
        "Nov 11 2009 13:28:18 EST | 2009-11-11T18:28:18Z",
        "Wed, 11 Nov 2009 13:28:18 GMT+02:00 | 2009-11-11T11:28:18Z",
        "Wed, 11 Nov 2009 13:28:18 Etc/GMT | 2009-11-11T13:28:18Z",
        "Wed, 11 Nov 2009 13:28:18 XYZ | 2009-11-11T13:28:18Z",
        "Wed Nov 11 13:28:18 CST 2009 | 2009-11-11T19:28:18Z",
        "Sun Jan  4 16:29:06 2004 | 2004-01-04T16:29:06Z",
        "2009-11-11 13:28:18 | 2009-11-11T13:28:18Z",
        "2009-11-11 13:28:18+08:00 | 2009-11-11T05:28:18Z",
        "2009-11-11T13:28:18.5-05:00 | 2009-11-11T18:28:18.500Z",
        "2009-11-11T13:28Z | 2009-11-11T13:28:00Z",
        "2009-11-11 | 2009-11-11T00:00:00Z",
        "2009-11 | 2009-11-01T00:00:00Z",
        "20091111T132818Z | 2009-11-11T13:28:18Z",
        "1700000000 | 2023-11-14T22:13:20Z",
        "1700000000123 | 2023-11-14T22:13:20.123Z",
    })
    void readsWhatFeedparserReads(String text, String expected) {
        assertThat(FeedDates.parse(text)).isEqualTo(Instant.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Sat, 31 Feb 2024 10:00:00 GMT", "Sat, 03 Feb 2024 25:61:00 GMT", "2024-02-30", "2024-13-01T00:00:00Z",
        "2024-01-01T24:30:00Z", "June 4, 2025", "the day after tomorrow", "", "   ", "Tue, 03 Jun", "12345", "Tue, 03 Jun 2025 08:30:00 +99:99",
        "2009-11-11T13:28:18+25:00"})
    void readsNothingFromImpossibleOrUnreadableDates(String text) {
        assertThat(FeedDates.parse(text)).isNull();
    }

    @Test
    void neverThrowsOnRandomText() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String alphabet = "0123456789 :+-,.TZtzJanFebMarWedGMTEST/";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(40); n > 0; n--) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            FeedDates.parse(text.toString());
        }
        assertThat(FeedDates.parse("9".repeat(200))).isNull();
    }

    @Test
    void theCorpusFeedReadsEachDateAsItsDescriptionSays() throws Exception {
        ParsedFeed feed = new FeedParser().parse(Testdata.bytes("quirks/dates-as-feeds-write-them.xml"), "application/rss+xml", Testdata.FEED_URL);
        assertThat(feed.entries()).hasSize(13);
        for (Entry entry : feed.entries()) {
            String expected = entry.summary().value().strip();
            assertThat(entry.published()).as(entry.id())
                    .isEqualTo(expected.equals("none") ? null : Instant.parse(expected));
        }
    }
}

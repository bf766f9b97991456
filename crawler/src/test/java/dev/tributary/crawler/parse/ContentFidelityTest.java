package dev.tributary.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.normalize.EntryNormalizer;
import dev.tributary.crawler.parse.ParsedFeed.Entry;
import dev.tributary.pubsub.NewItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.jsoup.Jsoup;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every feed under {@code src/test/resources}: each entry that carries full content of its own (text,
 * an image, a lazy image whose real source is in {@code data-src} or a srcset, or a video player) keeps
 * it through normalisation, as its item's {@code content} (issue 47: the feed's own
 * full content is kept, not only the summary).
 */
class ContentFidelityTest {

    private static final Instant FETCHED = Instant.parse("2026-01-01T00:00:00Z");

    private final FeedParser parser = new FeedParser();
    private final EntryNormalizer normalizer = new EntryNormalizer(500);

    @ParameterizedTest
    @MethodSource("dev.tributary.crawler.parse.TitleFidelityTest#feeds")
    void noEntryWithContentLosesIt(Path feed) throws Exception {
        ParsedFeed parsed = parser.parse(Files.readAllBytes(feed), null, Testdata.FEED_URL);
        for (Entry entry : parsed.entries()) {
            if (!showsSomething(entry)) {
                continue;
            }
            // Each entry alone, so that a kept item is this entry's, whatever the feed's order or duplicates.
            ParsedFeed alone = new ParsedFeed(parsed.format(), parsed.base(), parsed.title(), parsed.siteUrl(), parsed.hub(),
                    parsed.self(), parsed.ttl(), parsed.author(), List.of(entry));
            List<NewItem> items = normalizer.normalize(alone, FETCHED).items();
            // An entry with no identity at all (no guid, link, title or text to hash) is no item: nothing to hold content.
            for (NewItem item : items) {
                assertThat(item.content()).as("%s: the entry %s shows content but its item has none", feed.getFileName(),
                        item.guid()).isNotNull();
                assertThat(item.content().html()).isNotBlank();
            }
        }
    }

    @org.junit.jupiter.api.Test
    void theCorpusHasEntriesWithContentToKeep() throws Exception {
        long entries = 0;
        for (Path feed : TitleFidelityTest.feeds().toList()) {
            entries += parser.parse(Files.readAllBytes(feed), null, Testdata.FEED_URL).entries().stream()
                    .filter(ContentFidelityTest::showsSomething).count();
        }
        assertThat(entries).as("entries with full content across the corpus: the test above is not empty").isGreaterThan(5);
    }

    private static boolean showsSomething(Entry entry) {
        if (entry.content() == null || entry.content().value().isBlank()) {
            return false;
        }
        if (!entry.content().html()) {
            return true;
        }
        var body = Jsoup.parseBodyFragment(entry.content().value()).body();
        return !body.text().isBlank() || !body.select("img[src^=http], img[data-src], img[srcset], iframe[src*=youtube], video").isEmpty();
    }
}

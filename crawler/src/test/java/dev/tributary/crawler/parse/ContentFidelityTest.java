package dev.tributary.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.normalize.EntryNormalizer;
import dev.tributary.crawler.normalize.FeedDocument;
import dev.tributary.crawler.parse.ParsedFeed.Entry;
import dev.tributary.pubsub.NewItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.jsoup.Jsoup;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every feed under {@code src/test/resources}: an entry that carries full content of its own (text or
 * an image) keeps it through normalisation, as the item's {@code content} (issue 47: the feed's own
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
        long withContent = parsed.entries().stream().filter(ContentFidelityTest::showsSomething).count();
        FeedDocument document = normalizer.normalize(parsed, FETCHED);
        long kept = document.items().stream().map(NewItem::content).filter(content -> content != null && !content.html().isBlank()).count();
        assertThat(kept).as("%s: items with content, of %d entries whose content shows something", feed.getFileName(), withContent)
                .isGreaterThanOrEqualTo(Math.min(withContent, document.items().size()));
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
        return !body.text().isBlank() || !body.select("img[src]").isEmpty();
    }
}

package dev.tributary.crawler.bench;

import dev.tributary.crawler.normalize.EntryNormalizer;
import dev.tributary.crawler.parse.FeedParser;
import dev.tributary.pubsub.NewItem;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.zip.Deflater;

/**
 * Issue 47's storage cost over the test corpus: every feed under the test resources parsed and
 * normalised, and each kept full content's raw UTF-8 bytes against its deflated size (zlib at
 * BEST_SPEED, as {@code item_contents} keeps it). Prints one line per feed with content and a total.
 * Run with the crawler's test classpath: {@code java -cp … dev.tributary.crawler.bench.ContentStorageFigures [resources dir]}.
 */
public final class ContentStorageFigures {

    private ContentStorageFigures() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : "crawler/src/test/resources");
        FeedParser parser = new FeedParser();
        EntryNormalizer normalizer = new EntryNormalizer(1000);
        long items = 0;
        long raw = 0;
        long deflated = 0;
        List<Path> feeds;
        try (var walk = Files.walk(root)) {
            feeds = walk.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(".xml") || p.toString().endsWith(".json"))
                    .sorted().toList();
        }
        for (Path feed : feeds) {
            List<NewItem> kept = normalizer.normalize(parser.parse(Files.readAllBytes(feed), null, URI.create("https://example.com/feed")),
                    Instant.parse("2026-01-01T00:00:00Z")).items();
            for (NewItem item : kept) {
                if (item.content() != null) {
                    byte[] bytes = item.content().html().getBytes(StandardCharsets.UTF_8);
                    items++;
                    raw += bytes.length;
                    deflated += deflate(bytes).length;
                }
            }
        }
        System.out.println(String.format(Locale.ROOT, "corpus: %d feeds, %d items with content: raw %,d bytes per item, deflated %,d "
                + "(%.2f of raw)", feeds.size(), items, raw / Math.max(1, items), deflated / Math.max(1, items), (double) deflated / raw));
    }

    private static byte[] deflate(byte[] raw) {
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            deflater.setInput(raw);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[16 * 1024];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }
}

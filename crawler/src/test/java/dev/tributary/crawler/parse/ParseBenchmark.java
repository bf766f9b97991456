package dev.tributary.crawler.parse;

import com.rometools.rome.io.SyndFeedInput;
import com.rometools.rome.io.XmlReader;
import dev.tributary.crawler.normalize.EntryNormalizer;
import dev.tributary.crawler.normalize.FeedDocument;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Micro-benchmark, not a test: parses a typical 50-entry RSS 2.0 feed (Media RSS, Dublin Core,
 * ~600-character HTML descriptions) N times from memory and prints feeds/s for Rome alone
 * ({@code SyndFeedInput} on an {@code XmlReader}), {@link FeedParser}, and FeedParser plus
 * {@link EntryNormalizer}: on one thread, then parser and normaliser shared by one thread per core.
 *
 * <pre>
 * ./mvnw -o -q test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt -pl crawler
 * java -cp crawler/target/test-classes:crawler/target/classes:$(cat /tmp/cp.txt) dev.tributary.crawler.parse.ParseBenchmark 3000
 * </pre>
 */
public final class ParseBenchmark {

    private static final URI URL = URI.create("https://news.example.com/rss");

    private ParseBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        byte[] feed = typicalFeed(50);
        FeedParser parser = new FeedParser();
        EntryNormalizer normalizer = new EntryNormalizer(500);
        Instant now = Instant.now();
        System.out.printf(Locale.ROOT, "feed: %d entries, %d bytes, %d runs each%n", 50, feed.length, n);
        for (int round = 0; round < 2; round++) {
            String label = round == 0 ? "warm-up " : "";
            report(label + "Rome alone (SyndFeedInput)", n, () ->
                    new SyndFeedInput().build(new XmlReader(new ByteArrayInputStream(feed), "application/rss+xml", true)));
            report(label + "FeedParser.parse", n, () -> parser.parse(feed, "application/rss+xml", URL));
            report(label + "FeedParser + EntryNormalizer", n, () -> normalizer.normalize(parser.parse(feed, "application/rss+xml", URL), now));
        }
        int threads = Runtime.getRuntime().availableProcessors();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            report("FeedParser + EntryNormalizer, " + threads + " threads", n, () -> {
                List<Future<FeedDocument>> results = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    results.add(pool.submit(() -> normalizer.normalize(parser.parse(feed, "application/rss+xml", URL), now)));
                }
                for (Future<FeedDocument> result : results) {
                    result.get();
                }
                return results.size();
            }, 1);
        }
    }

    private interface Work {
        Object run() throws Exception;
    }

    private static void report(String label, int n, Work work) throws Exception {
        report(label, n, work, n);
    }

    /** Runs {@code work} {@code calls} times, which together handle {@code n} feeds. */
    private static void report(String label, int n, Work work, int calls) throws Exception {
        long start = System.nanoTime();
        int sink = 0;
        for (int i = 0; i < calls; i++) {
            sink += work.run().hashCode() & 1;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "%-40s %8.0f feeds/s  (%.3f ms/feed)%s%n", label, n / seconds, seconds * 1000 / n,
                sink < 0 ? "!" : "");
    }

    /** A news feed as they come: HTML descriptions with links and images, categories, creators, one picture per story. */
    static byte[] typicalFeed(int entries) {
        StringBuilder xml = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"
                     xmlns:dc="http://purl.org/dc/elements/1.1/">
                <channel><title>Example News &#8211; Top stories</title><link>https://news.example.com/</link>
                <description>The latest stories</description><language>en</language><ttl>10</ttl>
                <atom:link href="https://news.example.com/rss" rel="self" type="application/rss+xml"/>
                """);
        for (int i = 0; i < entries; i++) {
            xml.append("<item><title>Story number ").append(i).append(": council approves the new riverside park &amp; cycle path</title>")
                    .append("<link>https://news.example.com/2025/06/03/story-").append(i).append("?ref=rss</link>")
                    .append("<guid isPermaLink=\"false\">news-").append(100_000 + i).append("</guid>")
                    .append("<description><![CDATA[<p>The council voted <b>7&ndash;2</b> on Tuesday to approve the riverside park, ")
                    .append("which will include a <a href=\"/topics/cycling\">cycle path</a>, a playground and 300 new trees.</p>")
                    .append("<p><img src=\"https://img.example.com/story-").append(i).append(".jpg\" alt=\"The site\" width=\"600\"> ")
                    .append("Residents had campaigned for the park for more than a decade, and construction is expected to start ")
                    .append("in the autumn once the final designs are agreed with the environment agency.</p>")
                    .append("<script>track()</script>]]></description>")
                    .append("<dc:creator>Reporter ").append(i % 7).append("</dc:creator>")
                    .append("<category>Local</category><category>Environment</category>")
                    .append("<pubDate>Tue, 03 Jun 2025 ").append(String.format(Locale.ROOT, "%02d:%02d", 8 + i / 60, i % 60))
                    .append(":00 GMT</pubDate>")
                    .append("<media:content url=\"https://img.example.com/story-").append(i)
                    .append("-1200.jpg\" medium=\"image\" width=\"1200\" height=\"800\"/>")
                    .append("<media:thumbnail url=\"https://img.example.com/story-").append(i).append("-140.jpg\" width=\"140\" height=\"93\"/>")
                    .append("</item>\n");
        }
        return xml.append("</channel></rss>\n").toString().getBytes(StandardCharsets.UTF_8);
    }
}

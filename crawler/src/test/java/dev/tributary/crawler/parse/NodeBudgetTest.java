package dev.tributary.crawler.parse;

import static dev.tributary.crawler.parse.Testdata.FEED_URL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.management.ThreadMXBean;
import dev.tributary.crawler.parse.FeedFormatException.Reason;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** A feed's tree has a bounded number of nodes, so a flood of tiny elements costs bounded heap, not a crash. */
class NodeBudgetTest {

    private static final String SMALL = "<rss version=\"2.0\"><channel><title>t</title></channel></rss>";

    @Test
    void theBudgetCountsElementsAttributesAndText() throws Exception {
        // rss, version="2.0", channel, title, "t": five nodes.
        byte[] body = Testdata.utf8(SMALL);

        assertThat(new FeedParser(5).parse(body, "application/rss+xml", FEED_URL).title().value()).isEqualTo("t");
        FeedFormatException refused = catchThrowableOfType(FeedFormatException.class,
                () -> new FeedParser(4).parse(body, "application/rss+xml", FEED_URL));
        assertThat(refused.reason()).isEqualTo(Reason.TOO_MANY_NODES);
        assertThat(refused.reason().key()).isEqualTo("too_many_nodes");
        assertThat(refused).hasMessageContaining("more than 4 XML nodes");
    }

    @Test
    void aGzippedFloodOfEmptyElementsIsRefusedWithinBoundedHeap() throws Exception {
        // Five million empty elements: 20 MB of XML, the most the fetcher decompresses, from a few kB of gzip.
        int elements = 5_000_000;
        byte[] gzipped = gzip("<rss version=\"2.0\"><channel><title>t</title>", "<a/>", elements, "</channel></rss>");
        byte[] body = gunzip(gzipped);
        assertThat(gzipped.length).isLessThan(64 * 1024);
        assertThat(body.length).isGreaterThan(elements * 4);
        FeedParser parser = new FeedParser(FeedParser.DEFAULT_MAX_XML_NODES);
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();

        long before = threads.getCurrentThreadAllocatedBytes();
        FeedFormatException refused = catchThrowableOfType(FeedFormatException.class,
                () -> parser.parse(body, "application/rss+xml", FEED_URL));
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(refused.reason()).isEqualTo(Reason.TOO_MANY_NODES);
        // Everything the parse allocated, garbage included, bounds what it could have held: the decoded
        // text (20 MB) and a tree of at most the budget, far below the ~100 bytes per element a full tree costs.
        assertThat(allocated).isLessThan(20L * elements);
    }

    private static byte[] gzip(String head, String repeated, int times, String tail) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(head.getBytes(StandardCharsets.UTF_8));
            byte[] chunk = repeated.repeat(10_000).getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < times / 10_000; i++) {
                gzip.write(chunk);
            }
            gzip.write(tail.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    private static byte[] gunzip(byte[] gzipped) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            return in.readAllBytes();
        }
    }
}

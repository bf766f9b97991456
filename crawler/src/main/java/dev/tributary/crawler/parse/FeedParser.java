package dev.tributary.crawler.parse;

import dev.tributary.crawler.parse.FeedFormatException.Reason;
import java.net.URI;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Parses RSS 0.9x/1.0/2.0, Atom 0.3/1.0 (Rome, hardened XML) and JSON Feed 1.x documents. Pure; one instance serves every thread. */
public final class FeedParser {

    /**
     * The default of {@link #FeedParser(int)}. Real feeds have 50 to 100 nodes per item, so this reads
     * 5,000 items; a tree costs about 90 bytes of heap per node, so no tree exceeds about 45 MB
     * (a 20 MB flood of {@code <a/>} would otherwise take 425 MB).
     */
    public static final int DEFAULT_MAX_XML_NODES = 500_000;

    private final XmlFeedReader xml;
    private final JsonFeedReader json = new JsonFeedReader();

    public FeedParser() {
        this(DEFAULT_MAX_XML_NODES);
    }

    /** @param maxXmlNodes the most nodes (elements, attributes, text, comments) an XML feed's tree may have */
    public FeedParser(int maxXmlNodes) {
        this.xml = new XmlFeedReader(maxXmlNodes);
    }

    /**
     * The feed in {@code body}, as fetched from {@code feedUrl} with this {@code Content-Type}.
     *
     * @throws FeedFormatException if it is not a feed ({@link Reason#NOT_A_FEED}: try HTML autodiscovery),
     *     is broken beyond repair, declares a DTD, or has more XML nodes than allowed
     */
    public ParsedFeed parse(byte[] body, @Nullable String contentType, URI feedUrl) throws FeedFormatException {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(feedUrl, "feedUrl");
        return switch (Syntax.of(body, contentType)) {
            case XML -> xml.read(body, contentType, feedUrl);
            case JSON -> json.read(body, feedUrl);
            case EMPTY -> throw new FeedFormatException(Reason.NOT_A_FEED, "The document is empty.");
        };
    }
}

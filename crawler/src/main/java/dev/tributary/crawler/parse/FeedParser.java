package dev.tributary.crawler.parse;

import dev.tributary.crawler.parse.FeedFormatException.Reason;
import java.net.URI;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Parses RSS 0.9x/1.0/2.0, Atom 0.3/1.0 (Rome, hardened XML) and JSON Feed 1.x documents. Pure; one instance serves every thread. */
public final class FeedParser {

    private final XmlFeedReader xml = new XmlFeedReader();
    private final JsonFeedReader json = new JsonFeedReader();

    public FeedParser() {
    }

    /**
     * The feed in {@code body}, as fetched from {@code feedUrl} with this {@code Content-Type}.
     *
     * @throws FeedFormatException if it is not a feed ({@link Reason#NOT_A_FEED}: try HTML autodiscovery),
     *     is broken beyond repair, or declares a DTD
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

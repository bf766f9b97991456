package dev.tributary.crawler.parse;

import java.net.URI;
import org.jspecify.annotations.Nullable;

/** Parses RSS 0.9x/1.0/2.0, Atom 0.3/1.0 (Rome, hardened XML) and JSON Feed 1.x documents. Pure. */
public final class FeedParser {

    public ParsedFeed parse(byte[] body, @Nullable String contentType, URI feedUrl) throws FeedFormatException {
        throw new FeedFormatException("to be built");
    }
}

package dev.tributary.crawler.parse;

import java.net.URI;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Feed autodiscovery: the {@code <link rel="alternate">} feeds an HTML page names. Pure. */
public final class HtmlFeedLinks {

    /** The feeds {@code body} (an HTML page fetched from {@code pageUrl}) names, best first; empty if none or not HTML. */
    public List<URI> find(byte[] body, @Nullable String contentType, URI pageUrl) {
        throw new UnsupportedOperationException("to be built");
    }
}

package dev.tributary.crawler.fetch;

import java.net.URI;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One conditional GET of a feed: its url and the validators of the last response, if any. */
public record FetchRequest(URI url, @Nullable String etag, @Nullable String lastModified) {

    public FetchRequest {
        Objects.requireNonNull(url, "url");
    }

    public static FetchRequest of(URI url) {
        return new FetchRequest(url, null, null);
    }
}

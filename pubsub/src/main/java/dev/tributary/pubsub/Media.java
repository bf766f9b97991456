package dev.tributary.pubsub;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One media object of an item (an enclosure, a Media RSS content or thumbnail). */
public record Media(String url, @Nullable String type, @Nullable Integer width, @Nullable Integer height,
        @Nullable Long length) {

    public Media {
        Objects.requireNonNull(url, "url");
    }
}

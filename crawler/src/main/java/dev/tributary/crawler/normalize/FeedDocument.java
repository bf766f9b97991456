package dev.tributary.crawler.normalize;

import dev.tributary.pubsub.NewItem;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A feed normalised and ready to publish: what it says about itself and its entries as items
 * (duplicates collapsed, urls absolute, summaries sanitised).
 *
 * @param hub the WebSub hub it names ({@code <link rel="hub">}), if any
 * @param self its own url as it names it ({@code <link rel="self">}), if any
 * @param ttl RSS {@code <ttl>}, if any
 */
public record FeedDocument(
        @Nullable String title,
        @Nullable String siteUrl,
        @Nullable URI hub,
        @Nullable URI self,
        @Nullable Duration ttl,
        List<NewItem> items) {

    public FeedDocument {
        items = List.copyOf(items);
    }
}

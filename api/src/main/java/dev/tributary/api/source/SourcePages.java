package dev.tributary.api.source;

import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.web.PageLinks;
import dev.tributary.api.web.Paging;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.SourceReach;
import dev.tributary.pubsub.Stored;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * Pages of one or more sources' items, newest first and as far back as they go (through the
 * source index, not the bounded home timeline), as a response with its {@code Link} header. A
 * person's profile is their own source merged with the feeds attached to it: pubsub relays an
 * attached feed's new items to the person's followers but indexes them under the feed alone.
 */
@Component
public class SourcePages {

    private final Items items;
    private final ItemViews views;
    private final SourceReach reach;

    SourcePages(Items items, ItemViews views, SourceReach reach) {
        this.items = items;
        this.views = views;
        this.reach = reach;
    }

    /**
     * One page of these sources' items for {@code readerId} (whose read flags they carry), with its
     * links. Only of the sources the reader may read ({@link SourceReach}): callers answer 404 for a
     * source the reader may not read before asking, and this keeps any other caller from leaking one.
     */
    public ResponseEntity<List<ItemView>> response(long readerId, Collection<Long> sourceIds, Paging paging) {
        List<Stored<Item>> page = page(reach.readable(readerId, sourceIds), paging);
        ResponseEntity.BodyBuilder response = ResponseEntity.ok();
        String links = PageLinks.header(page.stream().map(Stored::id).toList());
        if (links != null) {
            response.header(HttpHeaders.LINK, links);
        }
        return response.body(views.of(readerId, page));
    }

    /** The page itself, newest first: each source's page of the same bounds, merged by id. */
    List<Stored<Item>> page(Collection<Long> sourceIds, Paging paging) {
        List<Stored<Item>> merged = new ArrayList<>();
        if (paging.minId() != null) {
            // min_id asks for the oldest entries newer than it: read upwards, keep the first ones, show newest first.
            long after = paging.sinceId() == null ? paging.minId() : Math.max(paging.minId(), paging.sinceId());
            for (long sourceId : sourceIds) {
                merged.addAll(items.ofSourceAfter(sourceId, after, paging.maxId(), paging.limit()));
            }
            merged.sort(Comparator.comparingLong(Stored::id));
            List<Stored<Item>> oldest = new ArrayList<>(merged.subList(0, Math.min(paging.limit(), merged.size())));
            return oldest.reversed();
        }
        for (long sourceId : sourceIds) {
            merged.addAll(items.ofSource(sourceId, paging.maxId(), paging.sinceId(), paging.limit()));
        }
        merged.sort(Comparator.comparingLong((Stored<Item> item) -> item.id()).reversed());
        return List.copyOf(merged.subList(0, Math.min(paging.limit(), merged.size())));
    }
}

package dev.tributary.api.source;

import dev.tributary.api.item.SourceRef;
import dev.tributary.api.item.SourceRefs;
import dev.tributary.api.web.Ids;
import dev.tributary.crawler.CrawlStatus;
import dev.tributary.crawler.SourceHealth;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.SourceKind;
import dev.tributary.pubsub.Stored;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/** Turns stored sources into {@link SourceView}s: names from {@link SourceRefs}, health from the crawler. */
@Component
public class SourceViews {

    /** What a source that is not crawled (a person's, a group's) or not yet crawled shows. */
    private static final CrawlStatus NOT_CRAWLED = new CrawlStatus("ok", null, null, null, null, null, false);

    private final SourceRefs refs;
    private final SourceHealth health;

    SourceViews(SourceRefs refs, SourceHealth health) {
        this.refs = refs;
        this.health = health;
    }

    /** Views of these sources in the order given; one query for names and one for health, whatever the count. */
    public List<SourceView> of(List<Stored<Source>> sources) {
        if (sources.isEmpty()) {
            return List.of();
        }
        List<Long> ids = sources.stream().map(Stored::id).distinct().toList();
        Map<Long, SourceRef> names = refs.of(ids);
        Map<Long, CrawlStatus> statuses = health.of(ids);
        List<SourceView> views = new ArrayList<>(sources.size());
        for (Stored<Source> source : sources) {
            SourceRef ref = names.get(source.id());
            CrawlStatus status = statuses.getOrDefault(source.id(), NOT_CRAWLED);
            views.add(new SourceView(Ids.format(source.id()), source.body().kind().wireName(),
                    ref == null ? null : ref.title(), source.body().url(), source.body().siteUrl(), status.status(),
                    status.lastFetchedAt(), status.nextFetchAt(), status.lastError(), groupId(source.body())));
        }
        return views;
    }

    private static @Nullable String groupId(Source source) {
        return source.kind() == SourceKind.GROUP && source.ownerId() != null ? Ids.format(source.ownerId()) : null;
    }

    public SourceView of(Stored<Source> source) {
        return of(List.of(source)).getFirst();
    }
}

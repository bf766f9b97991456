package dev.tributary.api.greader;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.pubsub.Folder;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxScan;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.StarPage;
import dev.tributary.pubsub.Stars;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Reads Google Reader streams out of a person's inbox and stars: the reading list is the whole
 * unread horizon (so {@code xt=…/read} lists every unread entry, not only the home window's), a
 * label is a folder's sources, {@code feed/…} one followed source, {@code …/starred} the stars in
 * the order they were given.
 */
@Component
class ReaderStreams {

    /** One page of ids and where the next one starts (null: this was the last). */
    record Page(List<Long> ids, @Nullable String continuation) {
    }

    private final HomeFeed home;
    private final Stars stars;
    private final Folders folders;
    private final ReaderFeeds feeds;

    ReaderStreams(HomeFeed home, Stars stars, Folders folders, ReaderFeeds feeds) {
        this.home = home;
        this.stars = stars;
        this.folders = folders;
        this.feeds = feeds;
    }

    /** Whether the stream is a walk over stars (else over the inbox). */
    boolean readsStars(StreamQuery query) {
        return query.stream() instanceof StreamId.Starred
                || query.include().stream().anyMatch(StreamId.Starred.class::isInstance);
    }

    /** The ids of one page of a stream. */
    Page ids(long userId, StreamQuery query) {
        boolean starred = readsStars(query);
        if (query.stream() instanceof StreamId.OtherState
                || query.include().stream().anyMatch(StreamId.OtherState.class::isInstance)) {
            return new Page(List.of(), null);
        }
        InboxScan.Reads reads = reads(query);
        if (reads == null) {
            return new Page(List.of(), null);
        }
        Set<Long> sources = sources(userId, query);
        return starred ? starredIds(userId, query, reads, sources) : inboxIds(userId, query, reads, sources);
    }

    /** {@code xt=…/read}: unread only; the read stream or {@code it=…/read}: read only; both: nothing (null). */
    private static InboxScan.@Nullable Reads reads(StreamQuery query) {
        boolean onlyRead = query.stream() instanceof StreamId.Read
                || query.include().stream().anyMatch(StreamId.Read.class::isInstance);
        boolean onlyUnread = query.exclude().stream().anyMatch(StreamId.Read.class::isInstance);
        if (onlyRead && onlyUnread) {
            return null;
        }
        return onlyRead ? InboxScan.Reads.READ : onlyUnread ? InboxScan.Reads.UNREAD : InboxScan.Reads.ANY;
    }

    /** The sources a label or feed (as the stream or an {@code it}) narrows to; null for all. */
    private @Nullable Set<Long> sources(long userId, StreamQuery query) {
        Set<Long> narrowed = null;
        List<StreamId> narrowing = new ArrayList<>(query.include());
        narrowing.add(query.stream());
        for (StreamId stream : narrowing) {
            Set<Long> of = switch (stream) {
                case StreamId.Label label -> folders.sourcesIn(userId, folder(userId, label.name()).id());
                case StreamId.Feed feed -> Set.of(feeds.subscribedSource(userId, feed.url())
                        .orElseThrow(() -> ApiProblem.notFound("feed among your subscriptions")));
                default -> null;
            };
            if (of != null) {
                narrowed = narrowed == null ? new HashSet<>(of) : intersect(narrowed, of);
            }
        }
        return narrowed;
    }

    Folder folder(long userId, String name) {
        return folders.byName(userId, name).orElseThrow(() -> ApiProblem.notFound("label"));
    }

    private static Set<Long> intersect(Set<Long> a, Collection<Long> b) {
        a.retainAll(b);
        return a;
    }

    private Page inboxIds(long userId, StreamQuery query, InboxScan.Reads reads, @Nullable Set<Long> sources) {
        if (query.starAfter() != null) {
            throw ApiProblem.invalid("c", "does not continue this stream");
        }
        List<Long> ids = home.ids(userId, new InboxScan(reads, sources, query.oldest(), query.newest(),
                query.inboxAfter(), query.oldestFirst(), query.n()));
        return new Page(ids, ids.size() < query.n() ? null : Long.toString(ids.getLast()));
    }

    /** Stars newest first (the order they were given), filtered by read state, source and storage time. */
    private Page starredIds(long userId, StreamQuery query, InboxScan.Reads reads, @Nullable Set<Long> sources) {
        if (query.inboxAfter() != null) {
            throw ApiProblem.invalid("c", "does not continue this stream");
        }
        List<Long> ids = new ArrayList<>();
        Long below = query.starAfter();
        Long lastStar = null;
        while (ids.size() < query.n()) {
            StarPage page = stars.page(userId, below, null, null, Stars.MAX_PAGE);
            List<StarPage.StarredItem> kept = keep(userId, page.items(), query, reads, sources);
            for (StarPage.StarredItem starred : kept) {
                if (ids.size() == query.n()) {
                    return new Page(ids, "s" + lastStar);
                }
                ids.add(starred.item().id());
                lastStar = starred.star().starId();
            }
            if (page.oldestStarId() == null) {
                return new Page(ids, null);
            }
            below = page.oldestStarId();
            lastStar = below;
        }
        return new Page(ids, "s" + lastStar);
    }

    private List<StarPage.StarredItem> keep(long userId, List<StarPage.StarredItem> page, StreamQuery query,
            InboxScan.Reads reads, @Nullable Set<Long> sources) {
        List<Long> ids = page.stream().map(s -> s.item().id()).toList();
        Set<Long> held = reads == InboxScan.Reads.ANY ? Set.of() : home.heldAmong(userId, ids);
        Set<Long> read = reads == InboxScan.Reads.ANY ? Set.of() : home.readAmong(userId, ids);
        return page.stream().filter(starred -> {
            Item item = starred.item().body();
            boolean isRead = !held.contains(starred.item().id()) || read.contains(starred.item().id());
            return (sources == null || sources.contains(item.sourceId()))
                    && (reads == InboxScan.Reads.ANY || (reads == InboxScan.Reads.READ) == isRead)
                    && (query.oldest() == null || !item.receivedAt().isBefore(query.oldest()))
                    && (query.newest() == null || item.receivedAt().isBefore(query.newest()));
        }).toList();
    }
}

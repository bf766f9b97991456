package dev.tributary.pubsub;

import dev.tributary.storage.DuplicateIndexKeyException;
import dev.tributary.storage.EntityStore;
import dev.tributary.storage.IndexKey;
import dev.tributary.storage.IndexReader;
import dev.tributary.storage.Transactions;
import dev.tributary.storage.WrongKindException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Sources: get-or-create a feed by url and a person's or group's own source, and the external
 * feeds attached to a person's profile (whose items also reach that person's followers).
 */
@Service
public class Sources {

    /** Feeds looked up or created per statement in bulk. */
    private static final int BULK = 500;
    private static final int BULK_ATTEMPTS = 3;

    private final EntityStore store;
    private final IndexReader indexes;
    private final JdbcClient jdbc;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final Transactions tx;
    private final PersonQuotas quotas;

    Sources(EntityStore store, IndexReader indexes, JdbcClient jdbc, ObjectProvider<Clock> clock,
            ApplicationEventPublisher events, Transactions tx, PersonQuotas quotas) {
        this.tx = tx;
        this.quotas = quotas;
        this.store = store;
        this.indexes = indexes;
        this.jdbc = jdbc;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
        this.events = events;
    }

    /** The feed source of {@code url} (already normalised by the caller), created on first use. */
    public Stored<Source> feed(String url) {
        return findFeed(url).orElseGet(() -> create(new Source(SourceKind.FEED, url, null, null, null, now()),
                () -> findFeed(url)));
    }

    public Optional<Stored<Source>> findFeed(String url) {
        return indexes.lookupUnique(PubsubKinds.SOURCE_URLS, IndexKey.of(url)).map(Stored::of);
    }

    /** A feed to register in bulk: its url (normalised by the caller) and what stands in for its title until it is fetched. */
    public record NewFeed(String url, @Nullable String title, @Nullable String siteUrl) {
    }

    /**
     * The feed sources of these urls, by url: the known ones looked up and the rest created in
     * one go. A feed without a title of its own yet takes the one given (cleaned by the caller).
     */
    public Map<String, Stored<Source>> feeds(List<NewFeed> feeds) {
        Map<String, NewFeed> byUrl = new LinkedHashMap<>();
        feeds.forEach(feed -> byUrl.putIfAbsent(feed.url(), feed));
        Map<String, Stored<Source>> found = new LinkedHashMap<>(findFeeds(byUrl.keySet()));
        List<NewFeed> missing = byUrl.values().stream().filter(feed -> !found.containsKey(feed.url())).toList();
        Instant now = now();
        for (int from = 0; from < missing.size(); from += BULK) {
            found.putAll(created(missing.subList(from, Math.min(missing.size(), from + BULK)), now));
        }
        found.replaceAll((url, source) -> provisional(source, byUrl.get(url)));
        return found;
    }

    /**
     * Creates these feeds in one statement. A feed someone else registered meanwhile (a check of
     * the same url still under way, say) fails it: the rest are looked up again and retried, and
     * after a few such races each is got or created on its own.
     */
    private Map<String, Stored<Source>> created(List<NewFeed> feeds, Instant now) {
        Map<String, Stored<Source>> found = new LinkedHashMap<>();
        for (int attempt = 0; attempt < BULK_ATTEMPTS; attempt++) {
            if (attempt > 0) {
                found.putAll(findFeeds(feeds.stream().map(NewFeed::url).toList()));
            }
            List<NewFeed> missing = feeds.stream().filter(feed -> !found.containsKey(feed.url())).toList();
            try {
                store.insertAll(PubsubKinds.SOURCE, missing.stream().map(feed -> draft(feed, now)).toList())
                        .forEach(source -> found.put(source.body().url(), Stored.of(source)));
                return found;
            } catch (DuplicateIndexKeyException raced) {
                // looked up again above
            }
        }
        feeds.stream().filter(feed -> !found.containsKey(feed.url())).forEach(feed -> found.put(feed.url(),
                findFeed(feed.url()).orElseGet(() -> create(draft(feed, now), () -> findFeed(feed.url())))));
        return found;
    }

    private static Source draft(NewFeed feed, Instant now) {
        return new Source(SourceKind.FEED, feed.url(), feed.title(), feed.siteUrl(), null, now);
    }

    private Stored<Source> provisional(Stored<Source> source, NewFeed feed) {
        if (source.body().title() != null || feed.title() == null) {
            return source;
        }
        return describe(source.id(), feed.title(), source.body().siteUrl() != null ? source.body().siteUrl() : feed.siteUrl());
    }

    /** The feed sources known for these urls (normalised), by url, looked up at once. */
    public Map<String, Stored<Source>> findFeeds(Collection<String> urls) {
        Map<String, Stored<Source>> found = new LinkedHashMap<>();
        if (urls.isEmpty()) {
            return found;
        }
        List<IndexKey> keys = urls.stream().distinct().map(IndexKey::of).toList();
        for (int from = 0; from < keys.size(); from += BULK) {
            indexes.lookupUnique(PubsubKinds.SOURCE_URLS, keys.subList(from, Math.min(keys.size(), from + BULK)))
                    .values().forEach(source -> found.put(source.body().url(), Stored.of(source)));
        }
        return found;
    }

    /** A person's own source, created on first use. */
    public Stored<Source> ofUser(long userId) {
        return owned(SourceKind.USER, userId);
    }

    Stored<Source> owned(SourceKind kind, long ownerId) {
        return findOwned(kind, ownerId).orElseGet(() -> create(new Source(kind, null, null, null, ownerId, now()),
                () -> findOwned(kind, ownerId)));
    }

    Optional<Stored<Source>> findOwned(SourceKind kind, long ownerId) {
        return indexes.lookupUnique(PubsubKinds.SOURCE_OWNERS, IndexKey.of(kind.wireName(), ownerId)).map(Stored::of);
    }

    /** The source with this id; empty if there is none or the id is not a source's. */
    public Optional<Stored<Source>> find(long id) {
        if (id <= 0) {
            return Optional.empty();
        }
        try {
            return store.find(PubsubKinds.SOURCE, id).map(Stored::of);
        } catch (WrongKindException e) {
            return Optional.empty();
        }
    }

    /** @throws SourceNotFoundException if there is no such source */
    public Stored<Source> get(long id) {
        return find(id).orElseThrow(() -> new SourceNotFoundException(id));
    }

    /** The sources with these ids, in the order asked, skipping missing ones. */
    public List<Stored<Source>> getAll(Collection<Long> ids) {
        return store.getAll(PubsubKinds.SOURCE, ids).stream().map(Stored::of).toList();
    }

    /** Records what a feed says about itself (its title and web page). */
    public Stored<Source> describe(long id, @Nullable String title, @Nullable String siteUrl) {
        Stored<Source> source = get(id);
        if (Objects.equals(source.body().title(), title) && Objects.equals(source.body().siteUrl(), siteUrl)) {
            return source;
        }
        return Stored.of(store.put(PubsubKinds.SOURCE, id, source.body().withDetails(title, siteUrl)));
    }

    /**
     * Moves a feed to the url it answered a permanent redirect from (already normalised); false,
     * leaving it where it was, if another feed source already has that url.
     */
    public boolean moveFeed(long id, String newUrl) {
        Stored<Source> source = get(id);
        if (source.body().kind() != SourceKind.FEED) {
            throw new IllegalArgumentException("only feeds have a url to move, not source " + id);
        }
        if (newUrl.equals(source.body().url())) {
            return true;
        }
        try {
            store.put(PubsubKinds.SOURCE, id, source.body().withUrl(newUrl));
            return true;
        } catch (DuplicateIndexKeyException e) {
            return false;
        }
    }

    /**
     * Attaches the external feed {@code feedSourceId} to a person's profile: its items from now
     * on also reach everyone who follows that person. Idempotent.
     *
     * @throws QuotaExceededException if it is not attached yet and the person attaches as many feeds as they may
     */
    public void attach(long userId, long feedSourceId) {
        Stored<Source> feed = get(feedSourceId);
        if (feed.body().kind() != SourceKind.FEED) {
            throw new IllegalArgumentException("only feeds can be attached to a profile, not source " + feedSourceId);
        }
        long relay = ofUser(userId).id();
        int attached = tx.write("attach " + feedSourceId + " to " + userId, status -> {
            if (jdbc.sql("SELECT COUNT(*) FROM source_relays WHERE source_id = ? AND relay_source_id = ?")
                    .params(feedSourceId, relay).query(Long.class).single() > 0) {
                return 0;
            }
            quotas.claim(userId, Quota.ATTACHED_FEEDS, () -> jdbc.sql("SELECT COUNT(*) FROM source_relays WHERE relay_source_id = ?")
                    .param(relay).query(Long.class).single());
            return jdbc.sql("INSERT IGNORE INTO source_relays (source_id, relay_source_id) VALUES (?, ?)")
                    .params(feedSourceId, relay)
                    .update();
        });
        if (attached > 0) {
            events.publishEvent(new SourceFollowed(feedSourceId));
        }
    }

    /**
     * The sources among {@code sourceIds} that someone reads: a person subscribes to it or a
     * profile attaches it. The crawler fetches only those.
     */
    public Set<Long> read(Collection<Long> sourceIds) {
        if (sourceIds.isEmpty()) {
            return Set.of();
        }
        // GROUP BY on the key's prefix reads one index entry per source, however many follow it.
        Set<Long> read = new HashSet<>(jdbc.sql("SELECT source_id FROM subscribers WHERE source_id IN (:ids) GROUP BY source_id")
                .param("ids", sourceIds).query(Long.class).list());
        read.addAll(jdbc.sql("SELECT source_id FROM source_relays WHERE source_id IN (:ids) GROUP BY source_id")
                .param("ids", sourceIds).query(Long.class).list());
        return read;
    }

    /**
     * Of these sources, those one person alone reads (one subscriber, attached to no profile), with
     * that person: the crawler shares a host's fetches fairly between the people whose feeds it
     * carries, and a feed with other readers (or a profile's followers) is nobody's in particular.
     */
    public Map<Long, Long> soleReaders(Collection<Long> sourceIds) {
        if (sourceIds.isEmpty()) {
            return Map.of();
        }
        Map<Long, Long> sole = new HashMap<>();
        jdbc.sql("""
                SELECT source_id, MIN(user_id) AS reader FROM subscribers WHERE source_id IN (:ids)
                GROUP BY source_id HAVING COUNT(*) = 1
                """).param("ids", sourceIds)
                .query((rs, n) -> Map.entry(rs.getLong("source_id"), rs.getLong("reader"))).list()
                .forEach(entry -> sole.put(entry.getKey(), entry.getValue()));
        if (!sole.isEmpty()) {
            jdbc.sql("SELECT source_id FROM source_relays WHERE source_id IN (:ids) GROUP BY source_id")
                    .param("ids", sole.keySet()).query(Long.class).list().forEach(sole::remove);
        }
        return sole;
    }

    /** Detaches a feed from a person's profile; false if it was not attached. */
    public boolean detach(long userId, long feedSourceId) {
        Optional<Stored<Source>> own = findOwned(SourceKind.USER, userId);
        return own.isPresent() && jdbc.sql("DELETE FROM source_relays WHERE source_id = ? AND relay_source_id = ?")
                .params(feedSourceId, own.get().id())
                .update() > 0;
    }

    /** The feeds attached to a person's profile. */
    public List<Long> attachedFeeds(long userId) {
        Optional<Stored<Source>> own = findOwned(SourceKind.USER, userId);
        if (own.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("SELECT source_id FROM source_relays WHERE relay_source_id = ? ORDER BY source_id")
                .param(own.get().id())
                .query(Long.class)
                .list();
    }

    /** The user sources that relay {@code sourceId}'s items to their own followers. */
    List<Long> relaysOf(long sourceId) {
        return jdbc.sql("SELECT relay_source_id FROM source_relays WHERE source_id = ? ORDER BY relay_source_id")
                .param(sourceId)
                .query(Long.class)
                .list();
    }

    /** Two callers may race to create the same source: the unique index lets one win, the other reads it. */
    private Stored<Source> create(Source source, Supplier<Optional<Stored<Source>>> existing) {
        try {
            return Stored.of(store.insert(PubsubKinds.SOURCE, source));
        } catch (DuplicateIndexKeyException e) {
            return existing.get().orElseThrow(() -> e);
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}

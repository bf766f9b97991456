package dev.tributary.pubsub;

import dev.tributary.pubsub.fanout.SubscriptionBackfill;
import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.pubsub.pull.PulledFeed;
import dev.tributary.pubsub.pull.SourceAudiences;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Who follows what, in both directions: {@code subscriptions} (by person) and
 * {@code subscribers} (by source, paged by fan-out), always written together. A new subscription
 * receives the source's latest few entries (see {@link SubscriptionBackfill}) and then whatever is
 * published; unsubscribing leaves delivered entries in place.
 */
@Service
public class Subscriptions {

    private static final RowMapper<Subscription> SUBSCRIPTION = (rs, n) -> new Subscription(
            rs.getLong("id"), rs.getLong("user_id"), rs.getLong("source_id"),
            MediaType.ofMask(rs.getInt("media_mask")), rs.getTimestamp("created_at").toInstant(), rs.getString("title"));

    /** Longest title a person may give a subscription. */
    public static final int MAX_TITLE_LENGTH = 200;
    private static final int BATCH_ROWS = 500;

    private final JdbcClient jdbc;
    private final Sources sources;
    private final IdGenerator ids;
    private final Transactions tx;
    private final SubscriptionBackfill backfill;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final PersonQuotas quotas;
    private final Switches switches;
    private final SourceAudiences audiences;
    private final PulledFeed pulled;
    private final Inbox inbox;
    private final SourceReach reach;

    Subscriptions(JdbcClient jdbc, Sources sources, IdGenerator ids, Transactions tx, SubscriptionBackfill backfill,
            ObjectProvider<Clock> clock, ApplicationEventPublisher events, PersonQuotas quotas, Switches switches,
            SourceAudiences audiences, PulledFeed pulled, Inbox inbox, SourceReach reach) {
        this.reach = reach;
        this.inbox = inbox;
        this.audiences = audiences;
        this.pulled = pulled;
        this.events = events;
        this.quotas = quotas;
        this.switches = switches;
        this.jdbc = jdbc;
        this.backfill = backfill;
        this.sources = sources;
        this.ids = ids;
        this.tx = tx;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * Subscribes a person to a source, taking only {@code media} (null or empty: everything).
     * Subscribing again changes the media filter of the existing subscription.
     *
     * @throws SourceNotFoundException if there is no such source, or the person may not read it (a
     *     closed group they are not a member of: following it would deliver its posts to them)
     * @throws QuotaExceededException if it would be new and the person follows as many sources as they may
     */
    public SubscribeResult subscribe(long userId, long sourceId, Collection<MediaType> media) {
        reach.find(userId, sourceId).orElseThrow(() -> new SourceNotFoundException(sourceId));
        int mask = MediaType.maskOf(media);
        // The back-fill is read, and the person's rules matched on it, before the subscribing
        // transaction: nothing to do if they follow the source already (or the switch is off).
        SubscriptionBackfill.Prepared prepared = switches.isOn(Feature.SUBSCRIBE_BACKFILL) && find(userId, sourceId).isEmpty()
                ? backfill.prepare(List.of(new SubscriptionBackfill.Follow(userId, sourceId, mask)))
                : SubscriptionBackfill.Prepared.NONE;
        SubscribeResult result;
        try {
            result = subscribeOnce(userId, sourceId, mask, prepared);
        } catch (DuplicateKeyException e) {
            // A concurrent subscribe of the same pair won the insert; ours now finds it.
            result = subscribeOnce(userId, sourceId, mask, prepared);
        }
        if (result.created()) {
            events.publishEvent(new SourceFollowed(sourceId));
        }
        return result;
    }

    private SubscribeResult subscribeOnce(long userId, long sourceId, int mask, SubscriptionBackfill.Prepared prepared) {
        return tx.write("subscribe " + userId + " to " + sourceId, status -> {
            Optional<Subscription> existing = findForUpdate(userId, sourceId);
            if (existing.isPresent()) {
                if (MediaType.maskOf(existing.get().media()) != mask) {
                    setMask(userId, sourceId, mask);
                    Subscription old = existing.get();
                    return new SubscribeResult(new Subscription(old.id(), userId, sourceId, MediaType.ofMask(mask), old.createdAt(), old.title()), false);
                }
                return new SubscribeResult(existing.get(), false);
            }
            quotas.claim(userId, Quota.SUBSCRIPTIONS, () -> count(userId));
            Subscription created = new Subscription(ids.next(), userId, sourceId, MediaType.ofMask(mask), now());
            jdbc.sql("""
                    INSERT INTO subscriptions (user_id, source_id, id, media_mask, created_at) VALUES (?, ?, ?, ?, ?)
                    """).params(userId, sourceId, created.id(), mask, created.createdAt()).update();
            jdbc.sql("INSERT INTO subscribers (source_id, user_id, media_mask) VALUES (?, ?, ?)")
                    .params(sourceId, userId, mask).update();
            counted(userId, sourceId, mask);
            // Written in the subscribing transaction: a node killed after a separate commit of the
            // subscription would lose the back-fill for good (importing again skips what exists).
            backfill.deliver(prepared, List.of(created));
            return new SubscribeResult(created, true);
        });
    }

    /**
     * A new subscriber of the source, inside the subscribing transaction: the audience count and
     * mode move under the source's row lock, and a follower of a source with pulled items starts
     * reading them from its back-fill on.
     */
    private void counted(long userId, long sourceId, int mask) {
        if (audiences.followed(sourceId, 1)) {
            pulled.followed(userId, sourceId, mask);
        }
    }

    /** A source a person wants to follow in a {@link #subscribeAll batch}, under their title for it (null: the source's own). */
    public record Wanted(long sourceId, @Nullable String title) {
    }

    /**
     * What a batch did, by source: the subscriptions it made (in the order asked), the sources the
     * person already followed (left as they were), and those past the person's limit (not followed).
     */
    public record Batch(List<Subscription> created, Set<Long> alreadyFollowed, List<Long> pastLimit) {

        public Batch {
            created = List.copyOf(created);
            alreadyFollowed = Set.copyOf(alreadyFollowed);
            pastLimit = List.copyOf(pastLimit);
        }
    }

    /**
     * Subscribes a person to many sources at once, to everything they publish, in one
     * transaction: one quota claim, multi-row inserts and one back-fill (an import of hundreds of
     * feeds would otherwise pay for hundreds of transactions). An existing subscription keeps its
     * media filter and title; as many new ones as fit under the person's limit are made, in the
     * order asked, and the rest are reported past it.
     *
     * @throws SourceNotFoundException if one of the sources does not exist or is not the person's to
     *     read (nothing is subscribed)
     * @throws InvalidNameException if a title is empty, too long or holds control characters
     */
    public Batch subscribeAll(long userId, List<Wanted> wanted) {
        Map<Long, Wanted> bySource = new LinkedHashMap<>();
        for (Wanted one : wanted) {
            String title = one.title() == null ? null : Names.clean("title", one.title(), MAX_TITLE_LENGTH);
            bySource.putIfAbsent(one.sourceId(), new Wanted(one.sourceId(), title));
        }
        if (bySource.isEmpty()) {
            return new Batch(List.of(), Set.of(), List.of());
        }
        Set<Long> found = new HashSet<>();
        sources.getAll(bySource.keySet()).stream().filter(source -> reach.mayRead(userId, source.body()))
                .forEach(source -> found.add(source.id()));
        bySource.keySet().stream().filter(id -> !found.contains(id)).findFirst().ifPresent(id -> {
            throw new SourceNotFoundException(id);
        });
        // As subscribe: read and filtered before the transaction, for the sources not followed yet.
        SubscriptionBackfill.Prepared prepared = SubscriptionBackfill.Prepared.NONE;
        if (switches.isOn(Feature.SUBSCRIBE_BACKFILL)) {
            Set<Long> followed = followedAmong(userId, bySource.keySet());
            prepared = backfill.prepare(bySource.keySet().stream().filter(id -> !followed.contains(id))
                    .map(id -> new SubscriptionBackfill.Follow(userId, id, MediaType.ALL)).toList());
        }
        Batch batch;
        try {
            batch = subscribeAllOnce(userId, bySource, prepared);
        } catch (DuplicateKeyException e) {
            // A concurrent subscribe of one of the pairs won its insert; ours now finds it followed.
            batch = subscribeAllOnce(userId, bySource, prepared);
        }
        batch.created().forEach(created -> events.publishEvent(new SourceFollowed(created.sourceId())));
        return batch;
    }

    private Batch subscribeAllOnce(long userId, Map<Long, Wanted> bySource, SubscriptionBackfill.Prepared prepared) {
        return tx.write("subscribe " + userId + " to " + bySource.size() + " sources", status -> {
            List<Long> fresh = new ArrayList<>(bySource.keySet());
            // Taken under the person's quota lock, which every subscribe of theirs takes before inserting.
            int room = quotas.claimUpTo(userId, Quota.SUBSCRIPTIONS, () -> count(userId), fresh.size());
            Set<Long> followed = followedAmong(userId, bySource.keySet());
            fresh.removeAll(followed);
            room = Math.min(room, fresh.size());
            List<Long> pastLimit = fresh.subList(room, fresh.size());
            Instant now = now();
            List<Subscription> created = fresh.subList(0, room).stream()
                    .map(sourceId -> new Subscription(ids.next(), userId, sourceId, null, now, bySource.get(sourceId).title()))
                    .toList();
            insert(created);
            created.stream().map(Subscription::sourceId).sorted().forEach(sourceId -> counted(userId, sourceId, MediaType.ALL));
            backfill.deliver(prepared, created);
            return new Batch(created, followed, pastLimit);
        });
    }

    private Set<Long> followedAmong(long userId, Collection<Long> sourceIds) {
        Set<Long> followed = new HashSet<>();
        for (List<Long> chunk : chunks(List.copyOf(sourceIds))) {
            followed.addAll(jdbc.sql("SELECT source_id FROM subscriptions WHERE user_id = :user AND source_id IN (:ids)")
                    .param("user", userId).param("ids", chunk).query(Long.class).list());
        }
        return followed;
    }

    private void insert(List<Subscription> created) {
        for (List<Subscription> chunk : chunks(created)) {
            List<Object> subscriptionArgs = new ArrayList<>(chunk.size() * 6);
            List<Object> subscriberArgs = new ArrayList<>(chunk.size() * 3);
            for (Subscription one : chunk) {
                subscriptionArgs.addAll(Arrays.asList(one.userId(), one.sourceId(), one.id(), MediaType.ALL, one.createdAt(), one.title()));
                subscriberArgs.addAll(List.of(one.sourceId(), one.userId(), MediaType.ALL));
            }
            jdbc.sql("INSERT INTO subscriptions (user_id, source_id, id, media_mask, created_at, title) VALUES "
                    + String.join(", ", Collections.nCopies(chunk.size(), "(?, ?, ?, ?, ?, ?)"))).params(subscriptionArgs).update();
            jdbc.sql("INSERT INTO subscribers (source_id, user_id, media_mask) VALUES "
                    + String.join(", ", Collections.nCopies(chunk.size(), "(?, ?, ?)"))).params(subscriberArgs).update();
        }
    }

    /** Statements of at most this many rows: far below the server's limit on placeholders. */
    private static <T> List<List<T>> chunks(List<T> all) {
        List<List<T>> chunks = new ArrayList<>();
        for (int from = 0; from < all.size(); from += BATCH_ROWS) {
            chunks.add(all.subList(from, Math.min(all.size(), from + BATCH_ROWS)));
        }
        return chunks;
    }

    /**
     * Ends a subscription, taking it out of every folder it was filed in; false if there was none.
     * Once that commits, {@link SourceUnfollowed} tells the other modules.
     */
    public boolean unsubscribe(long userId, long sourceId) {
        boolean removed = tx.write("unsubscribe " + userId + " from " + sourceId, status -> {
            int rows = jdbc.sql("DELETE FROM subscriptions WHERE user_id = ? AND source_id = ?")
                    .params(userId, sourceId).update();
            int left = jdbc.sql("DELETE FROM subscribers WHERE source_id = ? AND user_id = ?").params(sourceId, userId).update();
            if (left > 0) {
                audiences.followed(sourceId, -1);
                pulled.unfollowed(userId, sourceId);
            }
            if (jdbc.sql("DELETE FROM folder_sources WHERE user_id = ? AND source_id = ?").params(userId, sourceId).update() > 0) {
                // Kept pages name their entries' folders, as a rename's do; kept folder maps count per folder.
                inbox.personChanged(userId);
                inbox.foldersChanged(userId);
            }
            return rows > 0;
        });
        if (removed) {
            events.publishEvent(new SourceUnfollowed(userId, sourceId));
        }
        return removed;
    }

    /** Ends the subscription with this id if it is the person's; false otherwise. */
    public boolean unsubscribeById(long userId, long subscriptionId) {
        return byId(userId, subscriptionId).map(s -> unsubscribe(userId, s.sourceId())).orElse(false);
    }

    public Optional<Subscription> byId(long userId, long subscriptionId) {
        return jdbc.sql("SELECT * FROM subscriptions WHERE user_id = ? AND id = ?")
                .params(userId, subscriptionId).query(SUBSCRIPTION).optional();
    }

    public Optional<Subscription> find(long userId, long sourceId) {
        return jdbc.sql("SELECT * FROM subscriptions WHERE user_id = ? AND source_id = ?")
                .params(userId, sourceId).query(SUBSCRIPTION).optional();
    }

    /** A person's subscriptions, oldest first. */
    public List<Subscription> of(long userId) {
        return jdbc.sql("SELECT * FROM subscriptions WHERE user_id = ? ORDER BY id")
                .param(userId).query(SUBSCRIPTION).list();
    }

    /**
     * Sets what the person calls their subscription to a source (null: the source's own title).
     *
     * @return the subscription as it is now, empty if the person does not follow the source
     * @throws InvalidNameException if the title is empty, longer than {@link #MAX_TITLE_LENGTH} or holds control characters
     */
    public Optional<Subscription> retitle(long userId, long sourceId, @Nullable String title) {
        String cleaned = title == null ? null : Names.clean("title", title, MAX_TITLE_LENGTH);
        if (find(userId, sourceId).isEmpty()) {
            return Optional.empty();
        }
        jdbc.sql("UPDATE subscriptions SET title = ? WHERE user_id = ? AND source_id = ?").params(cleaned, userId, sourceId).update();
        return find(userId, sourceId);
    }

    /** How many sources a person follows (their own included). */
    public long count(long userId) {
        return jdbc.sql("SELECT COUNT(*) FROM subscriptions WHERE user_id = ?").param(userId).query(Long.class).single();
    }

    /** How many people follow a source. */
    public long subscriberCount(long sourceId) {
        return jdbc.sql("SELECT COUNT(*) FROM subscribers WHERE source_id = ?").param(sourceId).query(Long.class).single();
    }

    private Optional<Subscription> findForUpdate(long userId, long sourceId) {
        return jdbc.sql("SELECT * FROM subscriptions WHERE user_id = ? AND source_id = ? FOR UPDATE")
                .params(userId, sourceId).query(SUBSCRIPTION).optional();
    }

    private void setMask(long userId, long sourceId, int mask) {
        jdbc.sql("UPDATE subscriptions SET media_mask = ? WHERE user_id = ? AND source_id = ?")
                .params(mask, userId, sourceId).update();
        jdbc.sql("UPDATE subscribers SET media_mask = ? WHERE source_id = ? AND user_id = ?")
                .params(mask, sourceId, userId).update();
        pulled.filterChanged(userId, sourceId, mask);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}

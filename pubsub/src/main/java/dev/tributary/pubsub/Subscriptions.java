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
import java.util.LinkedHashSet;
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
 * published after it (what was published before reaches it by the back-fill alone); unsubscribing
 * leaves delivered entries in place, read.
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
        return subscribe(userId, sourceId, media, null);
    }

    /**
     * {@link #subscribe(long, long, Collection)}, filing a new subscription in these folders of
     * the person's in the same transaction (null: in none; an existing subscription's folders are
     * left alone), so that those folders' rules act on its back-fill.
     *
     * @throws FolderNotFoundException if one of the folders is not the person's
     */
    public SubscribeResult subscribe(long userId, long sourceId, Collection<MediaType> media, @Nullable Collection<Long> folderIds) {
        reach.find(userId, sourceId).orElseThrow(() -> new SourceNotFoundException(sourceId));
        int mask = MediaType.maskOf(media);
        Set<Long> folders = folderIds == null ? Set.of() : new LinkedHashSet<>(folderIds);
        SubscribeResult result = null;
        for (int attempt = 1; result == null; attempt++) {
            // The back-fill is read, and the person's rules matched on it, before the subscribing
            // transaction: nothing to do if they follow the source already (or the switch is off).
            SubscriptionBackfill.Prepared prepared = switches.isOn(Feature.SUBSCRIBE_BACKFILL) && find(userId, sourceId).isEmpty()
                    ? backfill.prepare(List.of(new SubscriptionBackfill.Follow(userId, sourceId, mask, folders)))
                    : SubscriptionBackfill.Prepared.NONE;
            boolean last = attempt == MAX_BACKFILL_READS;
            try {
                result = subscribeOnce(userId, sourceId, mask, folders, prepared, last);
            } catch (DuplicateKeyException e) {
                // A concurrent subscribe of the same pair won the insert; ours now finds it.
                result = subscribeOnce(userId, sourceId, mask, folders, prepared, true);
            } catch (StaleBackfill stale) {
                // The source published since the back-fill was read: read it again.
            }
        }
        if (result.created()) {
            events.publishEvent(new SourceFollowed(sourceId));
        }
        return result;
    }

    /** Times a subscription reads its back-fill again because its source published meanwhile. */
    private static final int MAX_BACKFILL_READS = 5;

    /** The source published since its back-fill was read: the subscribing transaction rolls back and reads it again. */
    private static final class StaleBackfill extends RuntimeException {
        StaleBackfill() {
            super(null, null, false, false);
        }
    }

    private SubscribeResult subscribeOnce(long userId, long sourceId, int mask, Set<Long> folders,
            SubscriptionBackfill.Prepared prepared, boolean lastTry) {
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
            fromNowOn(userId, List.of(sourceId), prepared, lastTry);
            if (!folders.isEmpty()) {
                fileNew(userId, Map.of(sourceId, folders));
            }
            // Written in the subscribing transaction: a node killed after a separate commit of the
            // subscription would lose the back-fill for good (importing again skips what exists).
            backfill.deliver(prepared, List.of(created));
            return new SubscribeResult(created, true);
        });
    }

    /**
     * Under each source's audience row (locked by {@link #counted}, as every publish locks it):
     * the new subscribers take by fan-out only the publishes after the one their back-fill was
     * read at; what was published before reaches them by the back-fill alone, so a first
     * subscriber gets what a later one gets. If a source published since, the back-fill is stale
     * and is read again (on the last try it is kept, and the fan-out of the publishes since
     * still reaches the subscriber, if it has not run yet).
     */
    private void fromNowOn(long userId, List<Long> sourceIds, SubscriptionBackfill.Prepared prepared, boolean lastTry) {
        if (sourceIds.isEmpty()) {
            return;
        }
        Map<Long, Long> now = audiences.publishedSeqs(sourceIds);
        boolean stale = sourceIds.stream().anyMatch(id -> now.getOrDefault(id, 0L) != prepared.seq(id));
        if (stale && !lastTry && prepared != SubscriptionBackfill.Prepared.NONE) {
            throw new StaleBackfill();
        }
        for (long sourceId : sourceIds) {
            long from = prepared == SubscriptionBackfill.Prepared.NONE ? now.getOrDefault(sourceId, 0L) : prepared.seq(sourceId);
            if (from > 0) {
                jdbc.sql("UPDATE subscribers SET from_seq = ? WHERE source_id = ? AND user_id = ?").params(from, sourceId, userId).update();
            }
        }
    }

    /** Files new subscriptions in the person's folders, in the subscribing transaction. */
    private void fileNew(long userId, Map<Long, Set<Long>> foldersBySource) {
        Set<Long> wanted = new HashSet<>();
        foldersBySource.values().forEach(wanted::addAll);
        if (wanted.isEmpty()) {
            return;
        }
        Set<Long> known = new HashSet<>(jdbc.sql("SELECT id FROM folders WHERE user_id = :user AND id IN (:ids)")
                .param("user", userId).param("ids", wanted).query(Long.class).list());
        wanted.stream().filter(id -> !known.contains(id)).findFirst().ifPresent(id -> {
            throw new FolderNotFoundException(id);
        });
        List<Object> args = new ArrayList<>();
        foldersBySource.forEach((sourceId, folders) -> folders.forEach(folder -> args.addAll(List.of(userId, folder, sourceId))));
        jdbc.sql("INSERT INTO folder_sources (user_id, folder_id, source_id) VALUES "
                + String.join(", ", Collections.nCopies(args.size() / 3, "(?, ?, ?)"))).params(args).update();
        inbox.personChanged(userId);
        inbox.foldersChanged(userId);
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

    /**
     * A source a person wants to follow in a {@link #subscribeAll batch}, under their title for
     * it (null: the source's own), filed (if it is new) in these folders of theirs.
     */
    public record Wanted(long sourceId, @Nullable String title, Set<Long> folderIds) {

        public Wanted {
            folderIds = Set.copyOf(folderIds);
        }

        public Wanted(long sourceId, @Nullable String title) {
            this(sourceId, title, Set.of());
        }
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
            bySource.putIfAbsent(one.sourceId(), new Wanted(one.sourceId(), title, one.folderIds()));
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
        Batch batch = null;
        for (int attempt = 1; batch == null; attempt++) {
            // As subscribe: read and filtered before the transaction, for the sources not followed yet.
            SubscriptionBackfill.Prepared prepared = SubscriptionBackfill.Prepared.NONE;
            if (switches.isOn(Feature.SUBSCRIBE_BACKFILL)) {
                Set<Long> followed = followedAmong(userId, bySource.keySet());
                prepared = backfill.prepare(bySource.values().stream().filter(one -> !followed.contains(one.sourceId()))
                        .map(one -> new SubscriptionBackfill.Follow(userId, one.sourceId(), MediaType.ALL, one.folderIds())).toList());
            }
            boolean last = attempt == MAX_BACKFILL_READS;
            try {
                batch = subscribeAllOnce(userId, bySource, prepared, last);
            } catch (DuplicateKeyException e) {
                // A concurrent subscribe of one of the pairs won its insert; ours now finds it followed.
                batch = subscribeAllOnce(userId, bySource, prepared, true);
            } catch (StaleBackfill stale) {
                // One of the sources published since the back-fill was read: read it again.
            }
        }
        batch.created().forEach(created -> events.publishEvent(new SourceFollowed(created.sourceId())));
        return batch;
    }

    private Batch subscribeAllOnce(long userId, Map<Long, Wanted> bySource, SubscriptionBackfill.Prepared prepared, boolean lastTry) {
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
            fromNowOn(userId, created.stream().map(Subscription::sourceId).toList(), prepared, lastTry);
            Map<Long, Set<Long>> filing = new LinkedHashMap<>();
            created.forEach(one -> {
                if (!bySource.get(one.sourceId()).folderIds().isEmpty()) {
                    filing.put(one.sourceId(), bySource.get(one.sourceId()).folderIds());
                }
            });
            fileNew(userId, filing);
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
            if (rows > 0) {
                // Its unread leave with it (issue 45): no count is left that no source accounts for.
                inbox.unfollowed(userId, sourceId);
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

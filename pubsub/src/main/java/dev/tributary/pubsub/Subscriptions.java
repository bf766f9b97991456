package dev.tributary.pubsub;

import dev.tributary.pubsub.fanout.SubscriptionBackfill;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
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

    private final JdbcClient jdbc;
    private final Sources sources;
    private final IdGenerator ids;
    private final Transactions tx;
    private final SubscriptionBackfill backfill;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final PersonQuotas quotas;
    private final Switches switches;

    Subscriptions(JdbcClient jdbc, Sources sources, IdGenerator ids, Transactions tx, SubscriptionBackfill backfill,
            ObjectProvider<Clock> clock, ApplicationEventPublisher events, PersonQuotas quotas, Switches switches) {
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
     * @throws SourceNotFoundException if there is no such source
     * @throws QuotaExceededException if it would be new and the person follows as many sources as they may
     */
    public SubscribeResult subscribe(long userId, long sourceId, Collection<MediaType> media) {
        sources.get(sourceId);
        int mask = MediaType.maskOf(media);
        SubscribeResult result;
        try {
            result = subscribeOnce(userId, sourceId, mask);
        } catch (DuplicateKeyException e) {
            // A concurrent subscribe of the same pair won the insert; ours now finds it.
            result = subscribeOnce(userId, sourceId, mask);
        }
        if (result.created()) {
            events.publishEvent(new SourceFollowed(sourceId));
        }
        return result;
    }

    private SubscribeResult subscribeOnce(long userId, long sourceId, int mask) {
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
            // In the subscribing transaction: a node killed after a separate commit of the
            // subscription would lose the back-fill for good (importing again skips what exists).
            if (switches.isOn(Feature.SUBSCRIBE_BACKFILL)) {
                backfill.backfill(created);
            }
            return new SubscribeResult(created, true);
        });
    }

    /** Ends a subscription, taking it out of every folder it was filed in; false if there was none. */
    public boolean unsubscribe(long userId, long sourceId) {
        return tx.write("unsubscribe " + userId + " from " + sourceId, status -> {
            int removed = jdbc.sql("DELETE FROM subscriptions WHERE user_id = ? AND source_id = ?")
                    .params(userId, sourceId).update();
            jdbc.sql("DELETE FROM subscribers WHERE source_id = ? AND user_id = ?").params(sourceId, userId).update();
            jdbc.sql("DELETE FROM folder_sources WHERE user_id = ? AND source_id = ?").params(userId, sourceId).update();
            return removed > 0;
        });
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
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}

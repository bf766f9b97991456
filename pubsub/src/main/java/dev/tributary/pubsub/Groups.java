package dev.tributary.pubsub;

import dev.tributary.storage.EntityStore;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import dev.tributary.storage.WrongKindException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Groups: creating one creates its source, every member is subscribed to that source, and a
 * member's post is published to it (so it reaches every member's home timeline). People become
 * members by accepting the owner's invitation or, if the owner made the group open, by joining.
 */
@Service
public class Groups {

    /** Longest group name. */
    public static final int MAX_NAME_LENGTH = 100;

    private final EntityStore store;
    private final IdGenerator ids;
    private final Sources sources;
    private final Subscriptions subscriptions;
    private final Publisher publisher;
    private final Transactions tx;
    private final JdbcClient jdbc;
    private final Clock clock;
    private final PersonQuotas quotas;
    private final XmppOutbox xmpp;

    Groups(EntityStore store, IdGenerator ids, Sources sources, Subscriptions subscriptions, Publisher publisher,
            Transactions tx, JdbcClient jdbc, ObjectProvider<Clock> clock, PersonQuotas quotas, XmppOutbox xmpp) {
        this.xmpp = xmpp;
        this.quotas = quotas;
        this.store = store;
        this.ids = ids;
        this.sources = sources;
        this.subscriptions = subscriptions;
        this.publisher = publisher;
        this.tx = tx;
        this.jdbc = jdbc;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * Creates a group owned by {@code ownerId}, with its source; the owner is its first member.
     *
     * @throws QuotaExceededException if the owner has as many groups, memberships or subscriptions as they may
     */
    public Stored<Group> create(long ownerId, String name) {
        return create(ownerId, name, false);
    }

    /**
     * Creates a group, open to anyone who joins or closed (members by invitation only).
     *
     * @throws QuotaExceededException if the owner has as many groups, memberships or subscriptions as they may
     */
    public Stored<Group> create(long ownerId, String name, boolean open) {
        String trimmed = name == null ? "" : name.strip();
        if (trimmed.isEmpty() || trimmed.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("a group name is 1.." + MAX_NAME_LENGTH + " characters");
        }
        long groupId = ids.next();
        Stored<Group> group = tx.write("create group", status -> {
            // The owner becomes a member and a subscriber: all three are checked under the one lock,
            // and the membership row is written with the group so the next creator's count sees it.
            quotas.claim(ownerId, Quota.GROUPS_OWNED, () -> owned(ownerId));
            quotas.claim(ownerId, Quota.MEMBERSHIPS, () -> membershipCount(ownerId));
            quotas.claim(ownerId, Quota.SUBSCRIPTIONS, () -> subscriptions.count(ownerId));
            Stored<Source> source = sources.owned(SourceKind.GROUP, groupId);
            Stored<Group> stored = Stored.of(store.put(PubsubKinds.GROUP, groupId, new Group(trimmed, ownerId, source.id(), now(), open)));
            jdbc.sql("INSERT IGNORE INTO group_members (group_id, user_id, created_at) VALUES (?, ?, ?)")
                    .params(groupId, ownerId, now()).update();
            xmpp.membersChanged(source.id());
            return stored;
        });
        subscriptions.subscribe(ownerId, group.body().sourceId(), null);
        return group;
    }

    public Optional<Stored<Group>> find(long groupId) {
        if (groupId <= 0) {
            return Optional.empty();
        }
        try {
            return store.find(PubsubKinds.GROUP, groupId).map(Stored::of);
        } catch (WrongKindException e) {
            return Optional.empty();
        }
    }

    /** @throws GroupNotFoundException if there is no such group */
    public Stored<Group> get(long groupId) {
        return find(groupId).orElseThrow(() -> new GroupNotFoundException(groupId));
    }

    /**
     * Opens a group to anyone who joins, or closes it (who is a member stays one); the group as it now is.
     *
     * @throws GroupNotFoundException if there is no such group
     */
    public Stored<Group> setOpen(long groupId, boolean open) {
        get(groupId);
        Stored<Group> changed = tx.write("open group " + groupId, status -> {
            // Under the row's lock, so a concurrent change of the same group is not lost.
            Stored<Group> group = store.getAllForUpdate(PubsubKinds.GROUP, List.of(groupId)).stream().findFirst().map(Stored::of)
                    .orElseThrow(() -> new GroupNotFoundException(groupId));
            if (group.body().open() == open) {
                return group;
            }
            xmpp.membersChanged(group.body().sourceId());
            return Stored.of(store.put(PubsubKinds.GROUP, groupId, group.body().withOpen(open)));
        });
        if (!open) {
            dropOutsiders(groupId);
        }
        return changed;
    }

    /**
     * Ends the subscriptions of people who follow a closed group without being members (anyone
     * could follow it while it was open, or before closed groups were members-only): a closed
     * group's posts are delivered to its members alone ({@link SourceReach}). What they received stays
     * theirs as delivered; nothing new reaches them. The number of subscriptions ended; none while the group is open.
     */
    public int dropOutsiders(long groupId) {
        Optional<Stored<Group>> group = find(groupId);
        if (group.isEmpty() || group.get().body().open()) {
            return 0;
        }
        long sourceId = group.get().body().sourceId();
        List<Long> outsiders = jdbc.sql("""
                SELECT s.user_id FROM subscribers s WHERE s.source_id = ?
                AND NOT EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = ? AND m.user_id = s.user_id)
                """).params(sourceId, groupId).query(Long.class).list();
        int ended = 0;
        for (long outsider : outsiders) {
            if (!isMember(groupId, outsider) && subscriptions.unsubscribe(outsider, sourceId)) {
                ended++;
            }
        }
        return ended;
    }

    /** The groups with a follower who is not a member: those {@link #dropOutsiders} may have work in. */
    List<Long> withOutsiders() {
        return jdbc.sql("""
                SELECT DISTINCT o.owner_id FROM subscribers s
                JOIN source_owners o ON o.entity_id = s.source_id AND o.owner_kind = 'group'
                WHERE NOT EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = o.owner_id AND m.user_id = s.user_id)
                """).query(Long.class).list();
    }

    /**
     * A person joins a group by themselves: only an open one, unless they are a member already
     * (then false, whether it is open or not). Invitations they blocked do not matter here: a
     * block refuses the owner's asking, not the person's own choice.
     *
     * @throws GroupClosedException if the group is closed and they are not a member
     * @throws QuotaExceededException if they belong to, or follow, as many as they may
     */
    public boolean join(long groupId, long userId) {
        Stored<Group> group = get(groupId);
        if (isMember(groupId, userId)) {
            return false;
        }
        if (!group.body().open()) {
            throw new GroupClosedException(groupId);
        }
        return addMember(groupId, userId);
    }

    /**
     * Adds a member and subscribes them to the group's source; false if they already were one.
     * Only the person themselves decides this (joining, or accepting an {@link GroupInvitations invitation}).
     *
     * @throws QuotaExceededException if they belong to, or follow, as many as they may
     */
    public boolean addMember(long groupId, long userId) {
        Stored<Group> group = get(groupId);
        boolean added = tx.write("add member " + userId + " to " + groupId, status -> {
            if (isMember(groupId, userId)) {
                return false;
            }
            quotas.claim(userId, Quota.MEMBERSHIPS, () -> membershipCount(userId));
            boolean inserted = jdbc.sql("INSERT IGNORE INTO group_members (group_id, user_id, created_at) VALUES (?, ?, ?)")
                    .params(groupId, userId, now()).update() > 0;
            if (inserted) {
                xmpp.membersChanged(group.body().sourceId());
            }
            return inserted;
        });
        // Subscribing is idempotent, so a crash between the two statements is mended by adding again.
        try {
            subscriptions.subscribe(userId, group.body().sourceId(), null);
        } catch (QuotaExceededException e) {
            if (added) {
                tx.run("undo member " + userId + " of " + groupId, () -> {
                    jdbc.sql("DELETE FROM group_members WHERE group_id = ? AND user_id = ?").params(groupId, userId).update();
                    xmpp.membersChanged(group.body().sourceId());
                });
            }
            throw e;
        }
        return added;
    }

    /** How many groups a person belongs to. */
    public long membershipCount(long userId) {
        return jdbc.sql("SELECT COUNT(*) FROM group_members WHERE user_id = ?").param(userId).query(Long.class).single();
    }

    /** How many groups a person owns: every owner is a member (and cannot leave), so their memberships hold them all. */
    private long owned(long userId) {
        return store.getAll(PubsubKinds.GROUP, groupsOf(userId)).stream().filter(g -> g.body().ownerId() == userId).count();
    }

    /** Removes a member and their subscription (what they already received stays); false if not a member. */
    public boolean removeMember(long groupId, long userId) {
        Stored<Group> group = get(groupId);
        int removed = tx.write("remove member " + userId + " of " + groupId, () -> {
            int deleted = jdbc.sql("DELETE FROM group_members WHERE group_id = ? AND user_id = ?").params(groupId, userId).update();
            if (deleted > 0) {
                // The closed group's node whitelist follows in the same transaction as the membership.
                xmpp.membersChanged(group.body().sourceId());
            }
            return deleted;
        });
        subscriptions.unsubscribe(userId, group.body().sourceId());
        return removed > 0;
    }

    public boolean isMember(long groupId, long userId) {
        return jdbc.sql("SELECT COUNT(*) FROM group_members WHERE group_id = ? AND user_id = ?")
                .params(groupId, userId).query(Long.class).single() > 0;
    }

    /** A page of members by user id, after {@code afterUserId}. */
    public List<Long> members(long groupId, long afterUserId, int limit) {
        return jdbc.sql("SELECT user_id FROM group_members WHERE group_id = ? AND user_id > ? ORDER BY user_id LIMIT ?")
                .params(groupId, afterUserId, limit).query(Long.class).list();
    }

    /** The groups a person belongs to. */
    public List<Long> groupsOf(long userId) {
        return jdbc.sql("SELECT group_id FROM group_members WHERE user_id = ? ORDER BY group_id")
                .param(userId).query(Long.class).list();
    }

    /**
     * Publishes a member's post to the group's source.
     *
     * @throws NotAMemberException if {@code userId} is not a member
     */
    public PublishResult post(long groupId, long userId, NewItem post) {
        Stored<Group> group = get(groupId);
        if (!isMember(groupId, userId)) {
            throw new NotAMemberException(groupId, userId);
        }
        return publisher.publish(group.body().sourceId(), List.of(post));
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}

package dev.tributary.pubsub;

import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Membership by consent: an owner invites, the person accepts (joining) or declines, and may
 * block a group so that it cannot invite them again ({@code group_invitations}, {@code group_blocks}).
 * A group's posts reach its members' home timelines, so nobody becomes one by someone else's say.
 */
@Service
public class GroupInvitations {

    private static final RowMapper<Invitation> INVITATION = (rs, n) -> new Invitation(rs.getLong("id"),
            rs.getLong("group_id"), rs.getLong("user_id"), rs.getLong("inviter_id"), rs.getTimestamp("created_at").toInstant());

    private final JdbcClient jdbc;
    private final IdGenerator ids;
    private final Transactions tx;
    private final Groups groups;
    private final Clock clock;

    GroupInvitations(JdbcClient jdbc, IdGenerator ids, Transactions tx, Groups groups, ObjectProvider<Clock> clock) {
        this.jdbc = jdbc;
        this.ids = ids;
        this.tx = tx;
        this.groups = groups;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * Invites a person to a group; inviting again returns the pending invitation.
     *
     * @throws InvitationRefusedException if the person blocked the group
     */
    public Invitation invite(long groupId, long inviterId, long userId) {
        groups.get(groupId);
        return tx.write("invite " + userId + " to " + groupId, status -> {
            if (blocks(userId, groupId)) {
                throw new InvitationRefusedException(groupId, userId);
            }
            Optional<Invitation> pending = pending(groupId, userId);
            if (pending.isPresent()) {
                return pending.get();
            }
            Invitation invitation = new Invitation(ids.next(), groupId, userId, inviterId, now());
            int inserted = jdbc.sql("""
                    INSERT IGNORE INTO group_invitations (user_id, id, group_id, inviter_id, created_at) VALUES (?, ?, ?, ?, ?)
                    """).params(userId, invitation.id(), groupId, inviterId, invitation.createdAt()).update();
            // A concurrent invite of the same pair inserted first: theirs is the one pending.
            return inserted > 0 ? invitation : pending(groupId, userId).orElse(invitation);
        });
    }

    /** A person's pending invitations, oldest first. */
    public List<Invitation> of(long userId) {
        return jdbc.sql("SELECT * FROM group_invitations WHERE user_id = ? ORDER BY id").param(userId).query(INVITATION).list();
    }

    public Optional<Invitation> find(long userId, long invitationId) {
        return jdbc.sql("SELECT * FROM group_invitations WHERE user_id = ? AND id = ?").params(userId, invitationId)
                .query(INVITATION).optional();
    }

    /**
     * Accepts a person's invitation: they become a member, and it is gone. Empty if they have no such invitation.
     *
     * @throws QuotaExceededException if they may not join more groups (the invitation stays)
     */
    public Optional<Invitation> accept(long userId, long invitationId) {
        Optional<Invitation> invitation = find(userId, invitationId);
        invitation.ifPresent(i -> {
            groups.addMember(i.groupId(), userId);
            delete(userId, invitationId);
        });
        return invitation;
    }

    /** Declines a person's invitation, also blocking its group when {@code block}; false if they had no such invitation. */
    public boolean decline(long userId, long invitationId, boolean block) {
        Optional<Invitation> invitation = find(userId, invitationId);
        invitation.ifPresent(i -> {
            if (block) {
                block(userId, i.groupId());
            }
            delete(userId, invitationId);
        });
        return invitation.isPresent();
    }

    /** The person refuses invitations from the group from now on; any pending one is dropped. */
    public void block(long userId, long groupId) {
        tx.run("block " + groupId + " for " + userId, () -> {
            jdbc.sql("INSERT IGNORE INTO group_blocks (user_id, group_id, created_at) VALUES (?, ?, ?)")
                    .params(userId, groupId, now()).update();
            jdbc.sql("DELETE FROM group_invitations WHERE group_id = ? AND user_id = ?").params(groupId, userId).update();
        });
    }

    /** Lets the group invite the person again; false if they had not blocked it. */
    public boolean unblock(long userId, long groupId) {
        return jdbc.sql("DELETE FROM group_blocks WHERE user_id = ? AND group_id = ?").params(userId, groupId).update() > 0;
    }

    public boolean blocks(long userId, long groupId) {
        return jdbc.sql("SELECT COUNT(*) FROM group_blocks WHERE user_id = ? AND group_id = ?")
                .params(userId, groupId).query(Long.class).single() > 0;
    }

    private Optional<Invitation> pending(long groupId, long userId) {
        return jdbc.sql("SELECT * FROM group_invitations WHERE group_id = ? AND user_id = ?").params(groupId, userId)
                .query(INVITATION).optional();
    }

    private void delete(long userId, long invitationId) {
        jdbc.sql("DELETE FROM group_invitations WHERE user_id = ? AND id = ?").params(userId, invitationId).update();
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}

package dev.tributary.pubsub;

import dev.tributary.pubsub.inbox.InboxRow;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The XMPP outbox ({@code xmpp_outbox}): its rows are written in the caller's transaction (the
 * publish of an item, its tombstone, the fan-out batch that wrote an inbox entry, a membership
 * change), so that nothing committed is left unpublished and nothing rolled back is published.
 * One node publishes them ({@link #holdLease}), in id order, deleting each once the server took
 * it. Writes nothing while XMPP is off; past {@code tributary.xmpp.max-backlog} rows it drops new
 * publishes and notifications and counts them, so an absent server cannot grow it without end
 * (membership changes and codes are always kept: they are few, and a lost one would be wrong).
 */
@Service
public class XmppOutbox {

    private static final RowMapper<XmppTask> TASK = (rs, n) -> new XmppTask(rs.getLong("id"),
            XmppTask.Kind.of(rs.getString("kind")), rs.getLong("item_id"), rs.getLong("source_id"), rs.getLong("user_id"),
            rs.getLong("link_id"), rs.getString("payload"), rs.getInt("attempts"), rs.getBoolean("in_doubt"));

    private final XmppSettings settings;
    private final JdbcClient jdbc;
    private final JdbcTemplate template;
    private final IdGenerator ids;
    private final Transactions tx;
    private final AtomicLong backlog = new AtomicLong();
    private final Counter dropped;
    /** Commits on this node that wrote rows, so that its idle publisher goes at once instead of at its next poll. */
    private final Wakeup committed = new Wakeup();

    XmppOutbox(XmppSettings settings, JdbcClient jdbc, JdbcTemplate template, IdGenerator ids, Transactions tx,
            ObjectProvider<MeterRegistry> registries) {
        MeterRegistry meters = registries.getIfAvailable(SimpleMeterRegistry::new);
        this.settings = settings;
        this.jdbc = jdbc;
        this.template = template;
        this.ids = ids;
        this.tx = tx;
        this.dropped = Counter.builder("tributary.xmpp.outbox.dropped")
                .description("XMPP publishes and notifications not written because the outbox was full").register(meters);
        Gauge.builder("tributary.xmpp.outbox.backlog", backlog, AtomicLong::get)
                .description("rows in the XMPP outbox as last counted").register(meters);
    }

    /** Whether XMPP push is on. */
    public boolean enabled() {
        return settings.enabled();
    }

    /** New or changed items of a source, to (re)publish on its public node under their own ids. */
    void published(long sourceId, Collection<Long> itemIds) {
        add(XmppTask.Kind.PUBLISH, sourceId, itemIds, true);
    }

    /** Tombstoned items of a source, to retract from its public node. */
    void retracted(long sourceId, Collection<Long> itemIds) {
        add(XmppTask.Kind.RETRACT, sourceId, itemIds, false);
    }

    private void add(XmppTask.Kind kind, long sourceId, Collection<Long> itemIds, boolean droppable) {
        if (!enabled() || itemIds.isEmpty()) {
            return;
        }
        List<Object[]> rows = new ArrayList<>(itemIds.size());
        for (long itemId : itemIds) {
            rows.add(new Object[] {kind, itemId, sourceId, 0L, 0L, null});
        }
        insert(rows, droppable);
    }

    /**
     * Inbox entries just written (in the caller's transaction, after filter rules and "one story,
     * once" had their say): one notification each to the people whose linked, proved address
     * asked for their home, or for the folder the entry's source is filed in.
     */
    public void delivered(List<InboxRow> entries) {
        if (!enabled() || entries.isEmpty()) {
            return;
        }
        Set<Long> people = new HashSet<>();
        entries.forEach(entry -> people.add(entry.userId()));
        Map<Long, LinkChoice> links = new HashMap<>();
        jdbc.sql("""
                SELECT user_id, id, deliver, folder_id FROM xmpp_links
                WHERE user_id IN (:people) AND verified_address IS NOT NULL AND deliver IN ('home', 'folder')
                """).param("people", people).query((rs, n) -> new LinkChoice(rs.getLong("user_id"), rs.getLong("id"),
                        rs.getString("deliver"), (Long) rs.getObject("folder_id", Long.class)))
                .list().forEach(link -> links.put(link.userId(), link));
        if (links.isEmpty()) {
            return;
        }
        Set<String> filed = filed(links.values());
        List<Object[]> rows = new ArrayList<>();
        for (InboxRow entry : entries) {
            LinkChoice link = links.get(entry.userId());
            if (link == null || ("folder".equals(link.deliver())
                    && !filed.contains(entry.userId() + ":" + link.folderId() + ":" + entry.sourceId()))) {
                continue;
            }
            rows.add(new Object[] {XmppTask.Kind.NOTIFY, entry.itemId(), entry.sourceId(), entry.userId(), link.id(), null});
        }
        insert(rows, true);
    }

    private record LinkChoice(long userId, long id, String deliver, @Nullable Long folderId) {
    }

    /** "user:folder:source" of the folder links' folders. */
    private Set<String> filed(Collection<LinkChoice> links) {
        Set<String> filed = new HashSet<>();
        for (LinkChoice link : links) {
            if ("folder".equals(link.deliver()) && link.folderId() != null) {
                jdbc.sql("SELECT source_id FROM folder_sources WHERE user_id = ? AND folder_id = ?")
                        .params(link.userId(), link.folderId()).query(Long.class).list()
                        .forEach(source -> filed.add(link.userId() + ":" + link.folderId() + ":" + source));
            }
        }
        return filed;
    }

    /** A person starred an item: a notification if their link asked for starred items. */
    void starred(long userId, long itemId, long sourceId) {
        if (!enabled()) {
            return;
        }
        jdbc.sql("SELECT id FROM xmpp_links WHERE user_id = ? AND verified_address IS NOT NULL AND deliver = 'starred'")
                .param(userId).query(Long.class).optional()
                .ifPresent(link -> insert(List.<Object[]>of(
                        new Object[] {XmppTask.Kind.NOTIFY, itemId, sourceId, userId, link, null}), true));
    }

    /** A closed group's membership, or a member's linked address, changed: its node's whitelist is set again. */
    void membersChanged(long groupSourceId) {
        if (enabled()) {
            insert(List.<Object[]>of(new Object[] {XmppTask.Kind.MEMBERS, 0L, groupSourceId, 0L, 0L, null}), false);
        }
    }

    /** A verification code to send to a newly linked address. */
    void code(long userId, long linkId, String code) {
        insert(List.<Object[]>of(new Object[] {XmppTask.Kind.CODE, 0L, 0L, userId, linkId, code}), false);
    }

    private void insert(List<Object[]> rows, boolean droppable) {
        if (rows.isEmpty()) {
            return;
        }
        if (droppable && backlog.get() + rows.size() > settings.maxBacklog()) {
            dropped.increment(rows.size());
            return;
        }
        String tuple = "(?, ?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))";
        List<Object> args = new ArrayList<>(rows.size() * 7);
        for (Object[] row : rows) {
            args.add(ids.next());
            args.add(((XmppTask.Kind) row[0]).sql());
            args.add(row[1]);
            args.add(row[2]);
            args.add(row[3]);
            args.add(row[4]);
            args.add(row[5]);
        }
        template.update("INSERT INTO xmpp_outbox (id, kind, item_id, source_id, user_id, link_id, payload, due_at, created_at) VALUES "
                + String.join(", ", Collections.nCopies(rows.size(), tuple)), args.toArray());
        backlog.addAndGet(rows.size());
        tx.afterCommit(committed::wake);
    }

    /** A mark to pass to {@link #awaitRows}: rows committed on this node after it end the wait at once. */
    public long mark() {
        return committed.mark();
    }

    /**
     * Waits up to {@code timeout} unless rows were committed on this node since {@code mark}; rows
     * written on other nodes are found by polling, at most {@code timeout} later.
     */
    public void awaitRows(long mark, Duration timeout) throws InterruptedException {
        committed.await(mark, timeout);
    }

    /**
     * Takes or renews the publishing lease for {@code owner}; true while it is theirs. Only its
     * holder publishes, so rows go out in order and none twice from two nodes.
     */
    public boolean holdLease(String owner) {
        return tx.write("hold the XMPP publisher lease", () -> jdbc.sql("""
                UPDATE xmpp_publisher_lease SET owner = :owner, lease_until = UTC_TIMESTAMP(6) + INTERVAL :ttl MICROSECOND
                WHERE name = 'xmpp' AND (owner = :owner OR lease_until <= UTC_TIMESTAMP(6))
                """).param("owner", owner).param("ttl", settings.leaseTtl().toNanos() / 1000).update() > 0);
    }

    /** Gives the lease up (a node stopping), so another node takes over at once. */
    public void releaseLease(String owner) {
        tx.run("release the XMPP publisher lease", () -> jdbc.sql("""
                UPDATE xmpp_publisher_lease SET owner = NULL, lease_until = '2000-01-01 00:00:00'
                WHERE name = 'xmpp' AND owner = ?
                """).param(owner).update());
    }

    /** The oldest rows due, in the order they were written. */
    public List<XmppTask> due(int limit) {
        return jdbc.sql("SELECT * FROM xmpp_outbox WHERE due_at <= UTC_TIMESTAMP(6) ORDER BY id LIMIT ?")
                .param(limit).query(TASK).list();
    }

    /**
     * Rows about to be sent: marked in doubt first, so that a retry after a broken session, a
     * crash or a lost lease knows the server may already have them.
     */
    public void sending(Collection<Long> taskIds) {
        if (!taskIds.isEmpty()) {
            jdbc.sql("UPDATE xmpp_outbox SET in_doubt = TRUE WHERE id IN (:ids) AND NOT in_doubt").param("ids", taskIds).update();
        }
    }

    /** Rows the server took (or that need nothing more): gone. */
    public void done(Collection<Long> taskIds) {
        if (!taskIds.isEmpty()) {
            int deleted = jdbc.sql("DELETE FROM xmpp_outbox WHERE id IN (:ids)").param("ids", taskIds).update();
            backlog.addAndGet(-deleted);
        }
    }

    /** A row the server refused for now: tried again after {@code delay}. */
    public void retry(long taskId, Duration delay) {
        jdbc.sql("UPDATE xmpp_outbox SET attempts = attempts + 1, due_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND WHERE id = ?")
                .params(delay.toNanos() / 1000, taskId).update();
    }

    /** Rows waiting, counted now (and kept for the bound). */
    public long backlog() {
        long count = jdbc.sql("SELECT COUNT(*) FROM xmpp_outbox").query(Long.class).single();
        backlog.set(count);
        return count;
    }

    /** Age of the oldest row waiting; zero when none. */
    public Duration oldest() {
        return jdbc.sql("SELECT TIMESTAMPDIFF(MICROSECOND, MIN(created_at), UTC_TIMESTAMP(6)) FROM xmpp_outbox")
                .query((rs, n) -> rs.getObject(1) == null ? Duration.ZERO : Duration.ofNanos(rs.getLong(1) * 1000)).single();
    }

    /** The proved addresses of a closed group's members, which its node's whitelist holds. */
    public List<String> memberAddresses(long groupId) {
        return jdbc.sql("""
                SELECT l.verified_address FROM group_members m JOIN xmpp_links l ON l.user_id = m.user_id
                WHERE m.group_id = ? AND l.verified_address IS NOT NULL ORDER BY l.verified_address
                """).param(groupId).query(String.class).list();
    }

    /** The proved address a notification or code row may still go to: its link, unless unlinked or replaced since. */
    public @Nullable String addressFor(XmppTask task) {
        String column = task.kind() == XmppTask.Kind.CODE ? "address" : "verified_address";
        return jdbc.sql("SELECT " + column + " FROM xmpp_links WHERE user_id = ? AND id = ?")
                .params(task.userId(), task.linkId()).query(String.class).optional().orElse(null);
    }
}

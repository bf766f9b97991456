package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.MediaType;
import dev.tributary.storage.IdGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The SQL of {@code fanout_tasks}: recording tasks in the publisher's transaction, claiming due
 * ones with {@code FOR UPDATE SKIP LOCKED} leases, and fenced progress (a write checks the lease
 * token under the task's row lock, so a worker that lost its lease cannot commit a batch).
 * Lease times are the database's clock, so nodes with skewed clocks agree.
 */
@Component
class FanoutTasks implements dev.tributary.pubsub.inbox.FanoutBacklog {

    /** A new task as the publisher records it. */
    record NewTask(FanoutTask.Kind kind, long itemId, long sourceId, long audienceSourceId, MediaType media,
            long cursorUser, long endUser, long sourceSeq) {

        NewTask(FanoutTask.Kind kind, long itemId, long sourceId, long audienceSourceId, MediaType media, long sourceSeq) {
            this(kind, itemId, sourceId, audienceSourceId, media, 0, FanoutTask.DONE, sourceSeq);
        }
    }

    private static final RowMapper<FanoutTask> TASK = (rs, n) -> new FanoutTask(rs.getLong("id"),
            FanoutTask.Kind.of(rs.getString("kind")), rs.getLong("item_id"), rs.getLong("source_id"),
            rs.getLong("audience_source_id"), MediaType.ofBit(rs.getInt("media")), rs.getLong("cursor_user"),
            rs.getLong("end_user"), rs.getLong("lease_token"), rs.getInt("attempts"), rs.getObject("lease_token") != null,
            rs.getLong("source_seq"));

    private final JdbcClient jdbc;
    private final JdbcTemplate template;
    private final IdGenerator ids;

    FanoutTasks(JdbcClient jdbc, JdbcTemplate template, IdGenerator ids) {
        this.jdbc = jdbc;
        this.template = template;
        this.ids = ids;
    }

    /** Records tasks, due at once, in the caller's transaction; one multi-row INSERT. */
    void add(List<NewTask> tasks) {
        if (tasks.isEmpty()) {
            return;
        }
        String tuple = "(?, ?, ?, ?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))";
        List<Object> args = new ArrayList<>(tasks.size() * 9);
        for (NewTask task : tasks) {
            args.add(ids.next());
            args.add(task.kind().sql());
            args.add(task.itemId());
            args.add(task.sourceId());
            args.add(task.audienceSourceId());
            args.add(task.media().bit());
            args.add(task.cursorUser());
            args.add(task.endUser());
            args.add(task.sourceSeq());
        }
        template.update("""
                INSERT INTO fanout_tasks (id, kind, item_id, source_id, audience_source_id, media, cursor_user, end_user,
                                          source_seq, lease_until, created_at)
                VALUES """ + String.join(", ", Collections.nCopies(tasks.size(), tuple)), args.toArray());
    }

    /**
     * Leases up to {@code limit} due tasks to {@code owner}, inside the caller's short transaction.
     * A retraction waits (postponed a second) while a delivery of its item is left, so that it
     * cannot run ahead of rows still being written.
     */
    List<FanoutTask> claim(String owner, int limit, Duration ttl) {
        return claim(owner, limit, ttl, false);
    }

    /**
     * As {@link #claim(String, int, Duration)}; with {@code oneGroup}, only the first ready task
     * and the deliveries that can run together with it (the same audience range, none taken
     * over: e.g. the items of one publish). The rest stay for other workers, so that the ranges
     * of one split audience spread over the workers rather than queue behind one.
     */
    List<FanoutTask> claim(String owner, int limit, Duration ttl, boolean oneGroup) {
        List<FanoutTask> due = jdbc.sql("""
                SELECT * FROM fanout_tasks WHERE lease_until <= UTC_TIMESTAMP(6)
                ORDER BY lease_until, id LIMIT ? FOR UPDATE SKIP LOCKED
                """).param(limit).query(TASK).list();
        List<Long> ready = new ArrayList<>(due.size());
        List<Long> waiting = new ArrayList<>();
        FanoutTask lead = null;
        for (FanoutTask task : due) {
            if (task.kind() == FanoutTask.Kind.RETRACT && deliveriesPending(task.itemId())) {
                waiting.add(task.id());
            } else if (!oneGroup || lead == null) {
                ready.add(task.id());
                lead = lead == null ? task : lead;
            } else if (together(lead, task)) {
                ready.add(task.id());
            }
        }
        if (!waiting.isEmpty()) {
            jdbc.sql("UPDATE fanout_tasks SET lease_until = UTC_TIMESTAMP(6) + INTERVAL 1 SECOND WHERE id IN (:ids)")
                    .param("ids", waiting).update();
        }
        if (ready.isEmpty()) {
            return List.of();
        }
        long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        jdbc.sql("""
                UPDATE fanout_tasks
                SET lease_token = :token, lease_owner = :owner, attempts = attempts + 1,
                    lease_until = UTC_TIMESTAMP(6) + INTERVAL :ttl MICROSECOND
                WHERE id IN (:ids)
                """)
                .param("token", token)
                .param("owner", owner)
                .param("ttl", ttl.toNanos() / 1000)
                .param("ids", ready)
                .update();
        return due.stream().filter(task -> ready.contains(task.id()))
                .map(task -> new FanoutTask(task.id(), task.kind(), task.itemId(), task.sourceId(), task.audienceSourceId(),
                        task.media(), task.cursorUser(), task.endUser(), token, task.attempts() + 1, task.takenOver(),
                        task.sourceSeq()))
                .toList();
    }

    private static boolean together(FanoutTask lead, FanoutTask task) {
        return lead.kind() == FanoutTask.Kind.DELIVER && task.kind() == FanoutTask.Kind.DELIVER && !lead.takenOver()
                && !task.takenOver() && lead.audienceSourceId() == task.audienceSourceId()
                && lead.cursorUser() == task.cursorUser() && lead.endUser() == task.endUser();
    }

    /** A plain (non-locking) read, so deliveries locked by their workers still count. */
    private boolean deliveriesPending(long itemId) {
        return jdbc.sql("SELECT COUNT(*) FROM fanout_tasks WHERE item_id = ? AND kind = 'deliver'")
                .param(itemId).query(Long.class).single() > 0;
    }

    /**
     * Locks the task row and checks the caller still holds it: the first statement of every
     * batch transaction, so a batch commits only under a valid lease.
     *
     * @throws LeaseLostException if the task is gone or leased to another
     */
    void fence(FanoutTask task) {
        Long token = jdbc.sql("SELECT lease_token FROM fanout_tasks WHERE id = ? FOR UPDATE")
                .param(task.id()).query(Long.class).optional().orElse(null);
        if (token == null || token != task.leaseToken()) {
            throw new LeaseLostException(task.id());
        }
    }

    /**
     * {@link #advance} for the tasks of one claim run together (or one task), in one statement
     * that is also their fence: it locks their rows and checks their token, so the batch need
     * not lock them first.
     *
     * @throws LeaseLostException if any of them is gone or leased to another
     */
    void advance(List<FanoutTask> group, long cursorUser, Duration ttl) {
        int updated = jdbc.sql("""
                UPDATE fanout_tasks SET cursor_user = :cursor, lease_until = UTC_TIMESTAMP(6) + INTERVAL :ttl MICROSECOND
                WHERE id IN (:ids) AND lease_token = :token
                """).param("cursor", cursorUser).param("ttl", ttl.toNanos() / 1000).param("ids", ids(group))
                .param("token", group.getFirst().leaseToken()).update();
        if (updated != group.size()) {
            throw new LeaseLostException(ids(group));
        }
    }

    /**
     * Narrows the tasks of one claim run together (or one task) to the subscribers up to
     * {@code endUser}, inside their fenced batch transaction: one statement.
     */
    void narrow(List<FanoutTask> group, long endUser) {
        jdbc.sql("UPDATE fanout_tasks SET end_user = :end WHERE id IN (:ids) AND lease_token = :token")
                .param("end", endUser).param("ids", ids(group)).param("token", group.getFirst().leaseToken()).update();
    }

    /**
     * {@link #finish} for the tasks of one claim run together (or one task), in one statement that
     * is also their fence (see {@link #advance(List, long, Duration)}).
     *
     * @throws LeaseLostException if any of them is gone or leased to another
     */
    void finish(List<FanoutTask> group) {
        int deleted = jdbc.sql("DELETE FROM fanout_tasks WHERE id IN (:ids) AND lease_token = :token")
                .param("ids", ids(group)).param("token", group.getFirst().leaseToken()).update();
        if (deleted != group.size()) {
            throw new LeaseLostException(ids(group));
        }
    }

    private static List<Long> ids(List<FanoutTask> group) {
        return group.stream().map(FanoutTask::id).toList();
    }

    /** Records committed progress (inside the fenced batch transaction) and renews the lease. */
    void advance(FanoutTask task, long cursorUser, Duration ttl) {
        jdbc.sql("""
                UPDATE fanout_tasks SET cursor_user = ?, lease_until = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND
                WHERE id = ? AND lease_token = ?
                """).params(cursorUser, ttl.toNanos() / 1000, task.id(), task.leaseToken()).update();
    }

    /** Removes a finished task (fenced by its token). */
    void finish(FanoutTask task) {
        jdbc.sql("DELETE FROM fanout_tasks WHERE id = ? AND lease_token = ?").params(task.id(), task.leaseToken()).update();
    }

    /** Hands a task back undone (a clean shutdown, Redis unreachable), due again {@code after}. */
    void release(FanoutTask task, Duration after) {
        jdbc.sql("""
                UPDATE fanout_tasks
                SET lease_until = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, lease_token = NULL, lease_owner = NULL
                WHERE id = ? AND lease_token = ?
                """).params(after.toNanos() / 1000, task.id(), task.leaseToken()).update();
    }

    /** Tasks not yet finished; for tests, metrics and the benchmark's "all delivered". */
    long pending() {
        return jdbc.sql("SELECT COUNT(*) FROM fanout_tasks").query(Long.class).single();
    }

    /** Seconds since the oldest unfinished task was published: the fan-out lag. */
    double oldestAgeSeconds() {
        return jdbc.sql("""
                SELECT COALESCE(TIMESTAMPDIFF(MICROSECOND, MIN(created_at), UTC_TIMESTAMP(6)), 0) FROM fanout_tasks
                """).query(Long.class).single() / 1e6;
    }

    /** The oldest item a deliver task is pending for: the count horizon stays below it, so its batches move no counter. */
    @Override
    public java.util.OptionalLong oldestItem() {
        return jdbc.sql("SELECT MIN(item_id) FROM fanout_tasks WHERE kind = 'deliver'").query((rs, n) -> {
            long oldest = rs.getLong(1);
            return rs.wasNull() ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(oldest);
        }).single();
    }
}
